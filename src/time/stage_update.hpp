#pragma once
// The explicit part of a Runge-Kutta stage: u* = u + dt gamma RHS_k + dt zeta RHS_{k-1} on the momentum faces.
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::time {

/// Advances every velocity component by the weighted right-hand sides (`previous` is skipped when its weight is 0).
void apply_stage_update(const fields::FlowState& state, const fields::FaceVector& current,
                        const fields::FaceVector& previous, Real current_weight, Real previous_weight,
                        const operators::StaggeredGrid& grid);

}  // namespace eddy::time
