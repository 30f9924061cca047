#pragma once
// The console side of a run, printed on rank 0: the diagnostics line of a step (the startup block is
// time/setup_report.hpp, the run summary run/run_summary.hpp).
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "core/step_record.hpp"
#include "grid/decomposition.hpp"

#include <string>

namespace eddy::run {

/// Prints the diagnostics line of a step.
void print_step(const StepRecord& record);

}  // namespace eddy::run
