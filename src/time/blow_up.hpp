#pragma once
// Recognising a run that diverged: NaN or Inf in the flow, a Courant number far above its target, or a divergence
// the projection could not remove. The time loop then stops with a message naming the step, the quantity and the
// place, and writes the last good state (the state before the failed step) as a checkpoint.
#include "config/deck.hpp"
#include "core/error.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

namespace eddy::time {

/// A step that diverged; what() names the step, the quantity and (for NaN/Inf) the global cell.
class Diverged : public Error {
 public:
  using Error::Error;
};

/// Courant number, relative to time.cfl, above which a step counts as blowing up.
inline constexpr double blow_up_cfl_factor = 10;
/// max |div u| dt (the relative volume change per step) above which the projection counts as failed.
inline constexpr double blow_up_volume_change = 0.1;

/// Throws Diverged when the step `record` (with `next_cfl` = dt times the new velocity rate) left NaN/Inf or a
/// blow-up; collective (every rank sees the same reduced diagnostics and throws together).
void check_for_blow_up(const StepRecord& record, double next_cfl, const config::TimeConfig& time,
                       const fields::FlowState& state, const grid::Decomposition& decomp);

}  // namespace eddy::time
