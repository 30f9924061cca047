#include "operators/advection.hpp"

#include "grid/cell_loops.hpp"
#include "operators/advection_stencil.hpp"
#include "operators/laplacian.hpp"

namespace eddy::operators {
namespace {

template <bool Upwind>
void tendency_kernels(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                      Real viscosity) {
  const Field u = state.u, v = state.v, w = state.w;
  const Field rhs_u = rhs.u, rhs_v = rhs.v, rhs_w = rhs.w;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  const Real nu = viscosity;
  const auto [lo_u, hi_u] = grid.momentum_box(0);
  grid::for_each_box_point(
      "flow::tendency_u", lo_u, hi_u, KOKKOS_LAMBDA(int i, int j, int k) {
        Real tendency = advection_u<Upwind>(u, v, w, i, j, k, inv, three_d);
        if (nu != 0) tendency += nu * laplacian(u, i, j, k, inv, three_d);
        rhs_u(i, j, k) = tendency;
      });
  const auto [lo_v, hi_v] = grid.momentum_box(1);
  grid::for_each_box_point(
      "flow::tendency_v", lo_v, hi_v, KOKKOS_LAMBDA(int i, int j, int k) {
        Real tendency = advection_v<Upwind>(u, v, w, i, j, k, inv, three_d);
        if (nu != 0) tendency += nu * laplacian(v, i, j, k, inv, three_d);
        rhs_v(i, j, k) = tendency;
      });
  if (!three_d) return;
  const auto [lo_w, hi_w] = grid.momentum_box(2);
  grid::for_each_box_point(
      "flow::tendency_w", lo_w, hi_w, KOKKOS_LAMBDA(int i, int j, int k) {
        Real tendency = advection_w<Upwind>(u, v, w, i, j, k, inv);
        if (nu != 0) tendency += nu * laplacian(w, i, j, k, inv, three_d);
        rhs_w(i, j, k) = tendency;
      });
}

}  // namespace

void compute_momentum_tendency(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                               config::AdvectionScheme scheme, Real viscosity) {
  if (scheme == config::AdvectionScheme::upwind) {
    tendency_kernels<true>(state, rhs, grid, viscosity);
  } else {
    tendency_kernels<false>(state, rhs, grid, viscosity);
  }
}

}  // namespace eddy::operators
