#include "operators/velocity_stage_update.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"

namespace eddy::operators {

void apply_stage_update(const fields::FlowState& state, const StageInputs& inputs, const StageWeights& weights,
                        const StaggeredGrid& grid) {
  const Real a = weights.current, b = weights.previous, c = weights.start, kept = 1 - weights.start;
  require(b == 0 || inputs.previous.u.is_allocated(), "stage update: a previous weight needs RHS_{k-1}");
  require(c == 0 || inputs.start.u.is_allocated(), "stage update: a start weight needs the starting velocity");
  const Field velocity[3] = {state.u, state.v, state.w};
  const Field rhs_now[3] = {inputs.current.u, inputs.current.v, inputs.current.w};
  const Field rhs_before[3] = {inputs.previous.u, inputs.previous.v, inputs.previous.w};
  const Field starts[3] = {inputs.start.u, inputs.start.v, inputs.start.w};
  const char* labels[3] = {"rk::stage_update_u", "rk::stage_update_v", "rk::stage_update_w"};
  for (int axis = 0; axis < grid.components(); ++axis) {
    const Field f = velocity[axis], now = rhs_now[axis], before = rhs_before[axis], start = starts[axis];
    const auto [lo, hi] = grid.momentum_box(axis);
    if (c != 0) {
      grid::for_each_box_point(
          labels[axis], lo, hi, KOKKOS_LAMBDA(int i, int j, int k) {
            const Real carried = (b != 0 ? b * before(i, j, k) : Real(0)) + c * start(i, j, k);
            f(i, j, k) = kept * f(i, j, k) + (a * now(i, j, k) + carried);
          });
    } else if (b == 0) {
      grid::for_each_box_point(
          labels[axis], lo, hi, KOKKOS_LAMBDA(int i, int j, int k) { f(i, j, k) += a * now(i, j, k); });
    } else {
      grid::for_each_box_point(
          labels[axis], lo, hi,
          KOKKOS_LAMBDA(int i, int j, int k) { f(i, j, k) += a * now(i, j, k) + b * before(i, j, k); });
    }
  }
}

}  // namespace eddy::operators
