#pragma once
// `eddy check`: validate a deck and show what a run of it would look like, without running it.
#include "command_line.hpp"

namespace eddy::app {

/// Prints the resolved deck, grid, decomposition over `line.ranks` ranks and memory per rank (rank 0 only);
/// returns 0 for a valid deck, 2 (after printing the error) otherwise. Needs MPI initialised, no collectives.
int run_check(const CommandLine& line, int rank);

}  // namespace eddy::app
