#include "io/output_schedule.hpp"

#include <cmath>

namespace eddy::io {

namespace {
// A step that lands this close below a multiple of the interval (relative to the interval) counts as reaching it,
// so round-off in the accumulated time never skips an output.
constexpr double time_tolerance = 1e-9;
}  // namespace

OutputSchedule::OutputSchedule(const config::OutputConfig& output, double start_time)
    : interval_steps_(output.interval_steps), interval_time_(output.interval_time) {
  if (interval_time_ > 0) {
    next_multiple_ = static_cast<long long>(std::ceil(start_time / interval_time_ - time_tolerance));
  }
}

bool OutputSchedule::due(long long step, double time) {
  bool output = interval_steps_ > 0 && step % interval_steps_ == 0;
  if (interval_time_ > 0 && time / interval_time_ >= static_cast<double>(next_multiple_) - time_tolerance) {
    output = true;
    // Skip every multiple this step has passed (a large dt may cross several).
    next_multiple_ = static_cast<long long>(std::floor(time / interval_time_ + time_tolerance)) + 1;
  }
  return output;
}

}  // namespace eddy::io
