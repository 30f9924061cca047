#pragma once
// A whole run: set up from a resolved deck, march in time, write output, report where the time went.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace eddy::physics {
class CoupledPhysics;
}

namespace eddy::time {

/// Options that come from the command line, not the deck.
struct RunOptions {
  std::string restart;  ///< "", "latest" or a checkpoint path
  bool quiet = false;   ///< no startup block, step lines or summary (tests)
};

class Simulation {
 public:
  /// Called after every step with the simulation and the step's record (field output, checkpoints, telemetry).
  using StepObserver = std::function<void(const Simulation&, const StepRecord&)>;

  /// Sets up grid, decomposition, fields, solvers and output for the deck; throws eddy::Error on bad setup.
  Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options = {});
  ~Simulation();
  /// Runs to the end time (or step/wall limit, or a signal); returns the process exit code.
  int run();

  /// Takes up to `steps` steps, stopping early at end_time or max_steps; returns the steps taken.
  long long advance(long long steps);
  /// True once end_time or max_steps is reached.
  bool finished() const;
  /// Registers a call made after every step, inside the timed output phase.
  void add_step_observer(StepObserver observer);

  /// The current flow state (velocity ghosts valid, pressure of the last projection).
  const fields::FlowState& state() const;
  /// This rank's block of the global grid.
  const grid::Decomposition& decomposition() const;
  /// Simulated time reached.
  double time() const;
  /// Steps taken.
  long long step() const;
  /// Kinetic energy of the current field (after the initial projection before the first step).
  double kinetic_energy() const;
  /// The diagnostics of every step taken, in order.
  const std::vector<StepRecord>& history() const;
  /// The resolved deck this simulation runs.
  const config::Deck& deck() const;
  /// Scalars, buoyancy and immersed bodies (fields, forces, Strouhal numbers).
  const physics::CoupledPhysics& physics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eddy::time
