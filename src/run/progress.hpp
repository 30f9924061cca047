#pragma once
// Progress of a run on rank 0's console: on a terminal one live line (step, t, dt, ETA) rewritten in place with
// \r a few times per second; otherwise (a log file, a batch job, any run under an MPI launcher) the diagnostics
// line every output.log_interval steps.
#include "config/deck.hpp"
#include "core/step_record.hpp"

#include <chrono>

namespace eddy::run {

/// True when stdout shows a line rewritten with \r in place: a terminal (not TERM=dumb) that eddy writes to directly.
/// Under an MPI launcher (mpirun, mpiexec, srun: known by the variables it gives its ranks) stdout may be a
/// pseudo-terminal even when the launcher's own output goes to a file or a pipe, so it does not count as a terminal.
bool stdout_is_live_terminal();

class Progress {
 public:
  /// `enabled`: print at all (rank 0, not quiet); the run starts at `time` and `step` (a restart's checkpoint).
  Progress(const config::Deck& deck, bool enabled, double time, long long step);

  /// Reports a finished step.
  void update(const StepRecord& record);
  /// Ends the live line, so that other messages start on a fresh line.
  void end_line();

 private:
  bool enabled_, live_;
  long long log_interval_, max_steps_, start_step_;
  double end_time_, start_time_;
  bool line_open_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace eddy::run
