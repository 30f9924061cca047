#include "time/time_step.hpp"

#include "core/error.hpp"
#include "grid/global_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace eddy::time {
namespace {

constexpr double max_dt_growth = 1.2;

}  // namespace

Diffusivity largest_diffusivity(const config::Deck& deck) {
  Diffusivity largest{deck.physics.viscosity, "physics.viscosity"};
  for (std::size_t n = 0; n < deck.scalars.size(); ++n) {
    if (deck.scalars[n].diffusivity > largest.value) {
      largest = {deck.scalars[n].diffusivity, "scalars[" + std::to_string(n) + "].diffusivity"};
    }
  }
  return largest;
}

StepLimits step_limits(const config::TimeConfig& time, double viscosity, const Real3& spacing, int dimensions,
                       double velocity_rate) {
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  StepLimits limits{unbounded, unbounded};
  if (velocity_rate > 0) limits.advective = time.cfl / velocity_rate;
  double inverse_h2 = 0;
  for (int a = 0; a < dimensions; ++a) inverse_h2 += 1 / (spacing[a] * spacing[a]);
  if (viscosity > 0) limits.viscous = time.viscous_safety / (2 * viscosity * inverse_h2);
  return limits;
}

double choose_time_step(const config::TimeConfig& time, const StepLimits& limits, double now, double previous_dt,
                        double next_output) {
  double dt = time.dt;
  if (time.adaptive) {
    // The first step starts from time.dt (the initial step); later ones may grow by 20% per step at most.
    const double growth_cap = previous_dt > 0 ? max_dt_growth * previous_dt : time.dt;
    dt = std::min({growth_cap, limits.advective, limits.viscous});
  }
  const bool to_output = time.adaptive && next_output < time.end_time;
  const double remaining = (to_output ? next_output : time.end_time) - now;
  // Take the remainder when the step would overshoot, or leave a sliver too small to matter. Towards an output time,
  // two even steps rather than one and a sliver: the next steps grow from the last one by 20% at most.
  if (dt >= remaining * (1 - 1e-10)) {
    dt = remaining;
  } else if (to_output && 2 * dt > remaining) {
    dt = remaining / 2;
  }
  return dt;
}

double next_output_time(const config::OutputConfig& output, double now) {
  if (output.interval_time <= 0) return std::numeric_limits<double>::infinity();
  constexpr double reached = 1e-9;  // as io::OutputSchedule counts a multiple reached
  return (std::floor(now / output.interval_time + reached) + 1) * output.interval_time;
}

void require_end_reachable(const config::Deck& deck) {
  const config::TimeConfig& time = deck.time;
  if (time.max_steps != config::TimeConfig{}.max_steps) return;  // a step limit of the user's own ends the run
  const grid::GlobalGrid grid = grid::global_grid(deck);
  const Real3 spacing{Real(grid.smallest_width(0)), Real(grid.smallest_width(1)), Real(grid.smallest_width(2))};
  const Diffusivity diffusivity = largest_diffusivity(deck);
  const double viscous = step_limits(time, diffusivity.value, spacing, deck.domain.dimensions, 0).viscous;
  const double largest_dt = time.adaptive ? viscous : time.dt;
  const double steps = time.end_time / largest_dt;
  if (!(steps > static_cast<double>(time.max_steps))) return;
  const double smallest =
      std::min(spacing[0], deck.domain.dimensions == 3 ? std::min(spacing[1], spacing[2]) : spacing[1]);
  char text[400];
  if (time.adaptive) {
    std::snprintf(text, sizeof text,
                  "%s: %g on cells of %g limits the time step to %.3g (the explicit-diffusion limit, "
                  "time.viscous_safety %g), so reaching time.end_time %g takes %.3g steps, more than time.max_steps "
                  "(%lld); allowed: a viscosity and grid that reach the end in fewer steps, or a time.max_steps of "
                  "your own",
                  diffusivity.key.c_str(), diffusivity.value, smallest, viscous, time.viscous_safety, time.end_time,
                  steps, time.max_steps);
  } else {
    std::snprintf(text, sizeof text,
                  "time.dt: got %g, so reaching time.end_time %g takes %.3g steps, more than time.max_steps (%lld); "
                  "allowed: a step that reaches the end in fewer steps, or a time.max_steps of your own",
                  time.dt, time.end_time, steps, time.max_steps);
  }
  throw Error(text);
}

}  // namespace eddy::time
