#include "operators/divergence.hpp"

#include "grid/cell_loops.hpp"
#include "operators/divergence_stencil.hpp"

namespace eddy::operators {

void compute_divergence(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale) {
  const Field u = state.u, v = state.v, w = state.w, target = out;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  grid::for_each_owned_cell(
      "flow::divergence", grid.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        target(i, j, k) = scale * divergence_at_center(u, v, w, i, j, k, inv, three_d);
      });
}

Real local_max_abs_divergence(const fields::FlowState& state, const StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  Real result = 0;
  grid::reduce_over_owned_cells(
      "flow::max_divergence", grid.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Real& local) {
        const Real d = Kokkos::fabs(divergence_at_center(u, v, w, i, j, k, inv, three_d));
        if (d > local) local = d;
      },
      Kokkos::Max<Real>(result));
  return result;
}

}  // namespace eddy::operators
