#pragma once
// Shared set-up for the Poisson tests: a problem on a communicator, fields filled from functions of the cell
// centres, and error norms over all ranks.
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"
#include "parallel/reducer.hpp"
#include "solver/poisson_solver.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

namespace eddy::testing {

using solver::PressureBoundary;
using solver::PressureFaces;

/// A Poisson problem on the unit box (or `length`) with the communicators and reducer it needs.
struct PoissonSetup {
  std::unique_ptr<parallel::Context> context;
  std::unique_ptr<parallel::Reducer> reducer;
  solver::PoissonProblem problem;

  /// `stretched`: the face coordinates of the axes that are not uniform (empty: uniform).
  PoissonSetup(MPI_Comm comm, int dim, Int3 cells, const PressureFaces& faces, int ghost = 1, Real3 length = {1, 1, 1},
               const std::array<std::vector<double>, 3>& stretched = {}) {
    context = std::make_unique<parallel::Context>(comm);
    reducer = std::make_unique<parallel::Reducer>(*context, parallel::choose_reduction_transport());
    grid::GlobalGrid g;
    g.dim = dim;
    g.cells = cells;
    g.length = length;
    for (int a = 0; a < 3; ++a) g.periodic[a] = faces[2 * a] == PressureBoundary::periodic;
    g.faces = stretched;
    problem.decomp = grid::decompose(g, comm);
    problem.shape = fields::local_shape(problem.decomp, ghost);
    for (int a = 0; a < 3; ++a) problem.spacing[a] = g.spacing(a);
    problem.faces = faces;
    problem.halo_transport = parallel::choose_halo_transport(*context, problem.decomp);
  }

  /// The halo transport a run would choose for this problem's decomposition.
  parallel::Transport halo_transport() const { return problem.halo_transport; }

  /// A field whose owned cells hold f(x, y, z) at the cell centres (ghosts zero).
  Field field_from(const std::function<Real(Real, Real, Real)>& f, bool with_ghosts = false) const {
    Field out = fields::make_field("test::field", problem.shape);
    auto host = Kokkos::create_mirror_view(out);
    const int g = problem.shape.ghost, lo = with_ghosts ? 0 : g;
    const Int3 hi = {g + problem.shape.cells[0] + g - lo, g + problem.shape.cells[1] + g - lo,
                     g + problem.shape.cells[2] + g - lo};  // past the ghosts: padding points stay zero
    for (int k = lo; k < hi[2]; ++k) {
      for (int j = lo; j < hi[1]; ++j) {
        for (int i = lo; i < hi[0]; ++i) {
          host(i, j, k) = f(centre(0, i), centre(1, j), centre(2, k));
        }
      }
    }
    Kokkos::deep_copy(out, host);
    return out;
  }

  /// Coordinate of the centre of the cell with view index `index` along `axis`.
  Real centre(int axis, int index) const {
    return problem.decomp.global.centre(axis, problem.decomp.offset[axis] + index - problem.shape.ghost);
  }

  /// Root-mean-square over all ranks of (a - b) on the owned cells, after removing the mean difference if asked.
  Real rms_difference(Field a, Field b, bool remove_mean) const {
    Real sum = 0, sum2 = 0;
    visit_owned(a, b, [&](Real va, Real vb) {
      sum += va - vb;
      sum2 += (va - vb) * (va - vb);
    });
    const auto total = reducer->allreduce(std::array<Real, 2>{sum, sum2}, parallel::ReduceOp::sum);
    const Real cells = static_cast<Real>(problem.decomp.global.total_cells());
    const Real mean = remove_mean ? total[0] / cells : 0;
    return std::sqrt(std::max(Real(0), total[1] / cells - mean * mean));
  }

  /// Largest |a - b| and largest |b| over the owned cells of every rank.
  std::array<Real, 2> max_difference(Field a, Field b) const {
    Real difference = 0, size = 0;
    visit_owned(a, b, [&](Real va, Real vb) {
      difference = std::max(difference, std::abs(va - vb));
      size = std::max(size, std::abs(vb));
    });
    return {reducer->max(difference), reducer->max(size)};
  }

 private:
  // Calls visit(a, b) with the values of both fields at every owned cell of this rank (on the host).
  template <class Visit>
  void visit_owned(Field a, Field b, const Visit& visit) const {
    auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
    const int g = problem.shape.ghost;
    const auto& n = problem.shape.cells;
    for (int k = g; k < g + n[2]; ++k)
      for (int j = g; j < g + n[1]; ++j)
        for (int i = g; i < g + n[0]; ++i) visit(ha(i, j, k), hb(i, j, k));
  }
};

/// Faces with one condition everywhere (z periodic in 2D).
inline PressureFaces uniform_faces(PressureBoundary type, int dim) {
  PressureFaces f;
  f.fill(type);
  if (dim == 2) f[4] = f[5] = PressureBoundary::periodic;
  return f;
}

/// Face sets that cover every condition and their mixes: uniform Neumann, Dirichlet and periodic, and two mixes (z
/// periodic in 2D).
inline std::vector<PressureFaces> face_variety(int dim) {
  using PB = PressureBoundary;
  std::vector<PressureFaces> all = {
      uniform_faces(PB::neumann, dim),
      uniform_faces(PB::dirichlet, dim),
      uniform_faces(PB::periodic, dim),
      {PB::periodic, PB::periodic, PB::neumann, PB::dirichlet, PB::dirichlet, PB::neumann},
      {PB::dirichlet, PB::neumann, PB::periodic, PB::periodic, PB::periodic, PB::periodic}};
  if (dim == 2) {
    for (auto& f : all) f[4] = f[5] = PB::periodic;
  }
  return all;
}

/// Solver settings for the tests.
inline config::PoissonConfig poisson_config(config::PoissonSolverType type, Real rtol, int max_iterations) {
  config::PoissonConfig c;
  c.solver = type;
  c.rtol = rtol;
  c.atol = 0;
  c.max_iterations = max_iterations;
  return c;
}

}  // namespace eddy::testing
