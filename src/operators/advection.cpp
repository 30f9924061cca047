#include "operators/advection.hpp"

#include "operators/advection_stencil.hpp"

namespace eddy::operators {
namespace {

template <bool Upwind>
void advection_kernels(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const Field rhs_u = rhs.u, rhs_v = rhs.v, rhs_w = rhs.w;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  Kokkos::parallel_for(
      "flow::advection_u", grid.momentum_faces(0),
      KOKKOS_LAMBDA(int i, int j, int k) { rhs_u(i, j, k) = advection_u<Upwind>(u, v, w, i, j, k, inv, three_d); });
  Kokkos::parallel_for(
      "flow::advection_v", grid.momentum_faces(1),
      KOKKOS_LAMBDA(int i, int j, int k) { rhs_v(i, j, k) = advection_v<Upwind>(u, v, w, i, j, k, inv, three_d); });
  if (three_d) {
    Kokkos::parallel_for(
        "flow::advection_w", grid.momentum_faces(2),
        KOKKOS_LAMBDA(int i, int j, int k) { rhs_w(i, j, k) = advection_w<Upwind>(u, v, w, i, j, k, inv); });
  }
}

}  // namespace

void compute_advection(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                       config::AdvectionScheme scheme) {
  if (scheme == config::AdvectionScheme::upwind) {
    advection_kernels<true>(state, rhs, grid);
  } else {
    advection_kernels<false>(state, rhs, grid);
  }
}

}  // namespace eddy::operators
