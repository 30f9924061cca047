#include "operators/diffusion.hpp"

#include "operators/laplacian.hpp"

namespace eddy::operators {

void add_diffusion(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                   Real viscosity) {
  if (viscosity == 0) return;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  const Real nu = viscosity;
  const Field velocity[3] = {state.u, state.v, state.w};
  const Field target[3] = {rhs.u, rhs.v, rhs.w};
  const char* labels[3] = {"flow::diffusion_u", "flow::diffusion_v", "flow::diffusion_w"};
  for (int axis = 0; axis < grid.components(); ++axis) {
    const Field f = velocity[axis], out = target[axis];
    Kokkos::parallel_for(
        labels[axis], grid.momentum_faces(axis),
        KOKKOS_LAMBDA(int i, int j, int k) { out(i, j, k) += nu * laplacian(f, i, j, k, inv, three_d); });
  }
}

}  // namespace eddy::operators
