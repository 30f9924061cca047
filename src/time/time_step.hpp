#pragma once
// The time-step size: fixed, or the largest step the advective CFL target and the explicit-diffusion limit allow.
#include "config/deck.hpp"
#include "core/types.hpp"

#include <limits>
#include <string>

namespace eddy::time {

/// Step limits of the explicit scheme on a grid with `spacing` in `dimensions` dimensions.
struct StepLimits {
  double advective = 0;  ///< cfl / max(|u|/dx + |v|/dy + |w|/dz); infinite at rest
  double viscous = 0;    ///< viscous_safety / (2 D sum 1/h^2), D the largest diffusivity; infinite when D = 0
};

/// The largest diffusivity of the deck, which sets the explicit-diffusion limit: the viscosity or a scalar's, and the
/// deck key it comes from.
struct Diffusivity {
  double value = 0;
  std::string key;
};
Diffusivity largest_diffusivity(const config::Deck& deck);

/// The two limits for a velocity rate max(|u|/dx + |v|/dy + |w|/dz) (1/s).
StepLimits step_limits(const config::TimeConfig& time, double viscosity, const Real3& spacing, int dimensions,
                       double velocity_rate);

/// The step to take from `now`: the limits (adaptive; time.dt first, then at most 20% growth per step) or time.dt
/// (fixed), never past end_time, and with adaptive steps never past `next_output` (a field output time).
double choose_time_step(const config::TimeConfig& time, const StepLimits& limits, double now, double previous_dt = 0,
                        double next_output = std::numeric_limits<double>::infinity());

/// The first multiple of output.interval_time after `now` (infinite when it is 0): where adaptive steps land so that
/// field output is written at its times.
double next_output_time(const config::OutputConfig& output, double now);

/// Throws eddy::Error, naming the deck key to blame, where reaching time.end_time takes more steps than the default
/// time.max_steps at the fixed time.dt or at the viscous limit alone (which no flow relaxes): a run that never ends.
void require_end_reachable(const config::Deck& deck);

}  // namespace eddy::time
