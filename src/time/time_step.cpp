#include "time/time_step.hpp"

#include <algorithm>
#include <limits>

namespace eddy::time {
namespace {

constexpr double max_dt_growth = 1.2;

}  // namespace

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

double choose_time_step(const config::TimeConfig& time, const StepLimits& limits, double now, double previous_dt) {
  double dt = time.dt;
  if (time.adaptive) {
    // The first step starts from time.dt (the initial step); later ones may grow by 20% per step at most.
    const double growth_cap = previous_dt > 0 ? max_dt_growth * previous_dt : time.dt;
    dt = std::min({growth_cap, limits.advective, limits.viscous});
  }
  const double remaining = time.end_time - now;
  // Take the remainder when the step would overshoot, or leave a sliver too small to matter.
  if (dt >= remaining * (1 - 1e-10)) dt = remaining;
  return dt;
}

}  // namespace eddy::time
