#pragma once
// A whole run of a simulation: the run folder and its outputs, the control that stops it (end time, step limit,
// signals, wall clock, STOP file), the progress line, the last checkpoint, and the summary of where the time went.
#include "core/error.hpp"
#include "time/simulation.hpp"

namespace eddy::run {

/// Exit statuses of eddy: the end was reached (0); bad input, or an environment eddy cannot use, found before the first
/// step (2); the run diverged, with the last good state checkpointed (3); stopped early by a signal, the wall clock or
/// a STOP file, with a checkpoint to continue from (75, EX_TEMPFAIL); an error during the steps (1, with its message).
inline constexpr int exit_finished = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_diverged = 3;
inline constexpr int exit_stopped_early = 75;

/// An error raised once the steps have begun (an output that cannot be written, a device failure): exit_failed.
class RunFailure : public Error {
 public:
  using Error::Error;
};

/// Runs `sim` to its end time or step limit, or until a signal, the wall clock or a STOP file stops it, writing the
/// run folder (fields, checkpoints, telemetry, summary); returns the exit status (exit_finished, ...).
int run_case(time::Simulation& sim);

}  // namespace eddy::run
