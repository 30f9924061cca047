#pragma once
// The explicit part of a Runge-Kutta stage on the momentum faces, from a stored right-hand side:
//   u* = (1 - beta) u + dt gamma RHS_k + dt zeta RHS_{k-1} + beta u_0.
// It runs where momentum sources (buoyancy) are added to the tendency between its computation
// (operators/advection.hpp) and the update; without sources the velocity stage (operators/velocity_stage.hpp) does
// both in one kernel.
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "operators/velocity_stage.hpp"

namespace eddy::operators {

/// The fields a stored-tendency update reads besides the velocity: RHS_k, RHS_{k-1} and u_0.
struct StageInputs {
  fields::FaceVector current, previous, start;
};

/// Advances every velocity component in place by the weighted inputs (a field whose weight is 0 is not read).
void apply_stage_update(const fields::FlowState& state, const StageInputs& inputs, const StageWeights& weights,
                        const StaggeredGrid& grid);

}  // namespace eddy::operators
