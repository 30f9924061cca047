#include "io/non_finite.hpp"

#include "grid/index_ranges.hpp"

#include <array>
#include <climits>
#include <cstdio>

namespace eddy::io {

std::string NonFiniteValue::describe() const {
  char text[256];
  std::snprintf(text, sizeof(text), "non-finite %s = %g at global cell (%d, %d, %d) at step %lld", quantity.c_str(),
                value, cell[0], cell[1], cell[2], step);
  return text;
}

std::optional<NonFiniteValue> find_non_finite(const fields::FlowState& state, const grid::Decomposition& decomp,
                                              MPI_Comm comm, long long step) {
  const std::array<std::pair<const char*, Field>, 4> quantities{
      {{"u", state.u}, {"v", state.v}, {"w", state.w}, {"p", state.p}}};
  const int g = state.shape.ghost;
  const long long nx = decomp.global.cells[0], ny = decomp.global.cells[1];
  const int ox = decomp.offset[0], oy = decomp.offset[1], oz = decomp.offset[2];
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (const auto& [name, field] : quantities) {
    const auto f = field;
    long long first = LLONG_MAX;
    Kokkos::parallel_reduce(
        "io::find_non_finite", grid::owned_cells(state.shape),
        KOKKOS_LAMBDA(int i, int j, int k, long long& lowest) {
          if (!Kokkos::isfinite(f(i, j, k))) {
            const long long index = (ox + i - g) + nx * ((oy + j - g) + ny * static_cast<long long>(oz + k - g));
            if (index < lowest) lowest = index;
          }
        },
        Kokkos::Min<long long>(first));
    long long global_first = first;
    MPI_Allreduce(MPI_IN_PLACE, &global_first, 1, MPI_LONG_LONG, MPI_MIN, comm);
    if (global_first == LLONG_MAX) continue;
    NonFiniteValue found{name,
                         {static_cast<int>(global_first % nx), static_cast<int>((global_first / nx) % ny),
                          static_cast<int>(global_first / (nx * ny))},
                         0,
                         step};
    int owner = first == global_first ? rank : size;
    MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MIN, comm);
    if (rank == owner) {
      const auto value = Kokkos::subview(f, found.cell[0] - ox + g, found.cell[1] - oy + g, found.cell[2] - oz + g);
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value);
      found.value = host();
    }
    MPI_Bcast(&found.value, 1, MPI_DOUBLE, owner, comm);
    return found;
  }
  return std::nullopt;
}

}  // namespace eddy::io
