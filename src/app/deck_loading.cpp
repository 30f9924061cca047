#include "deck_loading.hpp"

#include "config/load.hpp"
#include "physics/immersed_boundary.hpp"
#include "time/time_step.hpp"

#include <cstdio>
#include <string>

namespace eddy::app {

config::Deck load_deck(const CommandLine& line) {
  config::Deck deck =
      line.deck.empty() ? config::load_default(line.overrides) : config::load(line.deck, line.overrides);
  if (!line.restart.empty()) deck.initial.checkpoint = line.restart;
  physics::require_fluid_around_bodies(deck);
  time::require_end_reachable(deck);
  return deck;
}

std::optional<config::Deck> load_deck_on_all_ranks(const CommandLine& line, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::optional<config::Deck> deck;
  std::string message;
  try {
    deck = load_deck(line);
  } catch (const Error& e) {
    message = e.what();
  }
  const int mine = deck ? size : rank;
  int first_failure = size;
  MPI_Allreduce(&mine, &first_failure, 1, MPI_INT, MPI_MIN, comm);
  if (first_failure == size) return deck;
  if (rank == first_failure) std::fprintf(stderr, "eddy: error: %s\n", message.c_str());
  return std::nullopt;
}

}  // namespace eddy::app
