#pragma once
// The startup block a simulation prints on rank 0: grid, decomposition, tuning plan, flow and pressure solver.
#include "config/deck.hpp"
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

}  // namespace eddy::time
