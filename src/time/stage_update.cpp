#include "time/stage_update.hpp"

#include "grid/cell_loops.hpp"

namespace eddy::time {

void apply_stage_update(const fields::FlowState& state, const fields::FaceVector& current,
                        const fields::FaceVector& previous, Real current_weight, Real previous_weight,
                        const operators::StaggeredGrid& grid) {
  const Field velocity[3] = {state.u, state.v, state.w};
  const Field rhs_now[3] = {current.u, current.v, current.w};
  const Field rhs_before[3] = {previous.u, previous.v, previous.w};
  const char* labels[3] = {"rk::stage_update_u", "rk::stage_update_v", "rk::stage_update_w"};
  const Real a = current_weight, b = previous_weight;
  for (int axis = 0; axis < grid.components(); ++axis) {
    const Field f = velocity[axis], now = rhs_now[axis], before = rhs_before[axis];
    const auto [lo, hi] = grid.momentum_box(axis);
    if (b == 0) {
      grid::for_each_box_point(
          labels[axis], lo, hi, KOKKOS_LAMBDA(int i, int j, int k) { f(i, j, k) += a * now(i, j, k); });
    } else {
      grid::for_each_box_point(
          labels[axis], lo, hi,
          KOKKOS_LAMBDA(int i, int j, int k) { f(i, j, k) += a * now(i, j, k) + b * before(i, j, k); });
    }
  }
}

}  // namespace eddy::time
