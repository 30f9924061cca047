#include "physics/field_expression.hpp"

#include "core/error.hpp"
#include "parallel/context.hpp"

#include <cmath>
#include <cstdio>

namespace eddy::physics {
namespace {

// Absolute position of the face of component `at` (0, 1, 2), or of the centre (cell_centres), of global cell `cell`.
void point_of_cell(const grid::GlobalGrid& global, const long long cell[3], int at, double x[3]) {
  for (int a = 0; a < 3; ++a) {
    const int n = static_cast<int>(cell[a]);
    x[a] = a == at ? global.face(a, n + 1) : global.centre(a, n);
  }
}

}  // namespace

void fill_from_expression(const config::Expression& expression, const std::string& key,
                          const grid::Decomposition& decomp, Field f, int at, int ghost, MPI_Comm comm, double t) {
  auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), f);
  const auto& global = decomp.global;
  long long first_bad = global.total_cells();
  for (int k = 0; k < decomp.local_cells[2]; ++k) {
    for (int j = 0; j < decomp.local_cells[1]; ++j) {
      for (int i = 0; i < decomp.local_cells[0]; ++i) {
        const long long cell[3] = {decomp.offset[0] + i, decomp.offset[1] + j, decomp.offset[2] + k};
        double x[3];
        point_of_cell(global, cell, at, x);
        const double value = expression(x[0], x[1], x[2], t);
        const long long index = cell[0] + global.cells[0] * (cell[1] + global.cells[1] * cell[2]);
        if (!std::isfinite(value) && index < first_bad) first_bad = index;
        host(i + ghost, j + ghost, k + ghost) = value;
      }
    }
  }
  parallel::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first_bad, 1, MPI_LONG_LONG, MPI_MIN, comm),
                      "MPI_Allreduce(initial expression)");
  if (first_bad < global.total_cells()) {
    const long long cell[3] = {first_bad % global.cells[0], first_bad / global.cells[0] % global.cells[1],
                               first_bad / (static_cast<long long>(global.cells[0]) * global.cells[1])};
    double x[3];
    point_of_cell(global, cell, at, x);
    char where[160];
    std::snprintf(where, sizeof(where), t != 0 ? "(%.6g, %.6g, %.6g) at t = %.6g" : "(%.6g, %.6g, %.6g)", x[0], x[1],
                  x[2], t);
    throw Error(key + ": '" + expression.text() + "' is not finite at " + where +
                    (at < cell_centres ? ", a face of the velocity" : ", a cell centre") +
                    "; allowed: an expression finite on the "
                    "whole domain",
                Error::Ranks::every);
  }
  Kokkos::deep_copy(f, host);
}

}  // namespace eddy::physics
