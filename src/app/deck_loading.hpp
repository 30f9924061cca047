#pragma once
// Loading the deck named on the command line, on every rank, with one error message for the user.
#include "command_line.hpp"
#include "config/deck.hpp"

#include <mpi.h>

#include <optional>

namespace eddy::app {

/// The deck of `line` (its file, or the embedded default) with its overrides; throws eddy::Error when invalid.
config::Deck load_deck(const CommandLine& line);

/// Loads the deck on every rank of `comm`; on bad input the lowest failing rank prints "eddy: error: ..." and every
/// rank gets nothing back (one MPI_Allreduce, so all ranks agree).
std::optional<config::Deck> load_deck_on_all_ranks(const CommandLine& line, MPI_Comm comm);

}  // namespace eddy::app
