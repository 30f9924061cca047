#pragma once
// The console side of a run, printed on rank 0: the startup block and the diagnostics line of a step
// (the run summary is time/run_summary.hpp).
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "core/step_record.hpp"
#include "grid/decomposition.hpp"

#include <string>

namespace eddy::time {

/// What the startup block reports besides the deck and decomposition.
struct SetupDescription {
  std::string poisson_solver;
  std::string poisson_hierarchy;  ///< Multigrid::describe(), or empty
  std::string tuning_plan;        ///< TuningPlan::describe()
};

/// Prints grid, decomposition, the tuning plan and the solver.
void print_startup(const config::Deck& deck, const grid::Decomposition& decomp, const SetupDescription& setup);

/// Prints the diagnostics line of a step.
void print_step(const StepRecord& record);

}  // namespace eddy::time
