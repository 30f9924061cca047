#include "time/blow_up.hpp"

#include "io/non_finite.hpp"

#include <cmath>
#include <cstdio>

namespace eddy::time {

void check_for_blow_up(const StepRecord& record, double next_cfl, const config::TimeConfig& time,
                       const fields::FlowState& state, const grid::Decomposition& decomp) {
  char text[512];
  if (!std::isfinite(record.kinetic_energy) || !std::isfinite(record.max_divergence) || !std::isfinite(next_cfl)) {
    const auto where = io::find_non_finite(state, decomp, decomp.comm, record.step);
    if (where) throw Diverged("the run diverged: " + where->describe());
    std::snprintf(text, sizeof(text), "the run diverged at step %lld: kinetic energy %g, max divergence %g",
                  record.step, record.kinetic_energy, record.max_divergence);
    throw Diverged(text);
  }
  if (next_cfl > blow_up_cfl_factor * time.cfl) {
    std::snprintf(text, sizeof(text),
                  "the run is blowing up at step %lld (t = %.6g): the Courant number reached %.3g, more than %g times "
                  "the target time.cfl = %g; use a smaller time.dt or an adaptive dt",
                  record.step, record.time, next_cfl, blow_up_cfl_factor, time.cfl);
    throw Diverged(text);
  }
  if (record.max_divergence * record.dt > blow_up_volume_change) {
    std::snprintf(text, sizeof(text),
                  "the run is blowing up at step %lld (t = %.6g): max |div u| = %.3g, so cells change volume by %.3g "
                  "per step; the pressure solve did not converge (see pressure.max_iterations and rtol)",
                  record.step, record.time, record.max_divergence, record.max_divergence * record.dt);
    throw Diverged(text);
  }
}

}  // namespace eddy::time
