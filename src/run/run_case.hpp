#pragma once
// A whole run of a simulation: the run folder and its outputs, the control that stops it (end time, step limit,
// signals, wall clock, STOP file), the progress line, the last checkpoint, and the summary of where the time went.
#include "time/simulation.hpp"

namespace eddy::run {

/// Exit status of run_case(): the end was reached (0); stopped early by a signal, the wall clock or a STOP file, with a
/// checkpoint to continue from (75, EX_TEMPFAIL); the run diverged (3). Bad input is 2 and other errors 1 (main).
inline constexpr int exit_finished = 0;
inline constexpr int exit_stopped_early = 75;
inline constexpr int exit_diverged = 3;

/// Runs `sim` to its end time or step limit, or until a signal, the wall clock or a STOP file stops it, writing the
/// run folder (fields, checkpoints, telemetry, summary); returns the exit status (exit_finished, ...).
int run_case(time::Simulation& sim);

}  // namespace eddy::run
