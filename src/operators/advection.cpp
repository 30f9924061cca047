#include "operators/advection.hpp"

#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "operators/momentum_tendency.hpp"
#include "operators/stretched_stencils.hpp"

namespace eddy::operators {
namespace {

// One kernel for all components: each cell reads the velocity neighbourhood once for the three stencils (three
// kernels, one per component, read it three times), through int offsets (fields/flat_field.hpp). A face on a physical
// high boundary is not advanced: the component's own index stops one short there.
template <class Flux>
void tendency_kernel(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                     Real viscosity) {
  const fields::FlatField u(state.u), v(state.v), w(state.w);
  const Field rhs_u = rhs.u, rhs_v = rhs.v, rhs_w = rhs.w;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  const Real nu = viscosity;
  const int end_u = grid.momentum_box(0).second[0], end_v = grid.momentum_box(1).second[1],
            end_w = grid.momentum_box(2).second[2];
  const auto [lo, hi] = grid.face_box(0, false, true);  // the owned cells
  grid::for_each_box_point(
      "flow::momentum_tendency", lo, hi, KOKKOS_LAMBDA(int i, int j, int k) {
        if (i < end_u) rhs_u(i, j, k) = momentum_tendency<0, Flux>(u, v, w, i, j, k, inv, three_d, nu);
        if (j < end_v) rhs_v(i, j, k) = momentum_tendency<1, Flux>(u, v, w, i, j, k, inv, three_d, nu);
        if (three_d && k < end_w) rhs_w(i, j, k) = momentum_tendency<2, Flux>(u, v, w, i, j, k, inv, three_d, nu);
      });
}

// tendency_kernel on a stretched grid.
template <class Flux>
void stretched_tendency_kernel(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                               Real viscosity) {
  const fields::FlatField u(state.u), v(state.v), w(state.w);
  const Field rhs_u = rhs.u, rhs_v = rhs.v, rhs_w = rhs.w;
  const grid::GridMetric m = grid.metric;
  const bool three_d = grid.three_d;
  const Real nu = viscosity;
  const int end_u = grid.momentum_box(0).second[0], end_v = grid.momentum_box(1).second[1],
            end_w = grid.momentum_box(2).second[2];
  const auto [lo, hi] = grid.face_box(0, false, true);
  grid::for_each_box_point(
      "flow::momentum_tendency_stretched", lo, hi, KOKKOS_LAMBDA(int i, int j, int k) {
        if (i < end_u) rhs_u(i, j, k) = stretched_tendency<0, Flux>(u, v, w, i, j, k, m, three_d, nu);
        if (j < end_v) rhs_v(i, j, k) = stretched_tendency<1, Flux>(u, v, w, i, j, k, m, three_d, nu);
        if (three_d && k < end_w) rhs_w(i, j, k) = stretched_tendency<2, Flux>(u, v, w, i, j, k, m, three_d, nu);
      });
}

}  // namespace

void compute_momentum_tendency(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                               config::AdvectionScheme scheme, Real viscosity) {
  with_advection_scheme(scheme, [&](auto flux) {
    if (grid.stretched) {
      stretched_tendency_kernel<decltype(flux)>(state, rhs, grid, viscosity);
    } else {
      tendency_kernel<decltype(flux)>(state, rhs, grid, viscosity);
    }
  });
}

}  // namespace eddy::operators
