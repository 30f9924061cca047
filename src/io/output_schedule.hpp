#pragma once
// When field output is due: every N steps, and/or at every multiple of a simulated-time interval.
#include "config/deck.hpp"

namespace eddy::io {

class OutputSchedule {
 public:
  /// Takes output.interval_steps and output.interval_time (0 = off); time outputs start at the first multiple of
  /// the interval at or after `start_time` (a restart passes the time of its checkpoint).
  explicit OutputSchedule(const config::OutputConfig& output, double start_time = 0);

  /// True when step `step` (reached at simulated time `time`) should be written; call once per step, in order.
  bool due(long long step, double time);
  /// True when any interval is set.
  bool enabled() const { return interval_steps_ > 0 || interval_time_ > 0; }

 private:
  long long interval_steps_;
  double interval_time_;
  long long next_multiple_ = 0;  ///< index k of the next time output t = k * interval_time
};

}  // namespace eddy::io
