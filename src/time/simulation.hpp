#pragma once
// A whole run: set up from a resolved deck, march in time, write output, report where the time went.
#include "config/deck.hpp"
#include "parallel/context.hpp"

#include <memory>
#include <string>

namespace eddy::time {

/// Options that come from the command line, not the deck.
struct RunOptions {
  std::string restart;  ///< "", "latest" or a checkpoint path
};

class Simulation {
 public:
  /// Sets up grid, decomposition, fields, solvers and output for the deck; throws eddy::Error on bad setup.
  Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options = {});
  ~Simulation();
  /// Runs to the end time (or step/wall limit, or a signal); returns the process exit code.
  int run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eddy::time
