#pragma once
// A whole run: set up from a resolved deck, march in time, write output, report where the time went.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"
#include "time/tuning_plan.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace eddy::physics {
class CoupledPhysics;
}

namespace eddy::time {

/// Exit status of run(): the end was reached (0); stopped early by a signal, the wall clock or a STOP file, with a
/// checkpoint to continue from (75, EX_TEMPFAIL); the run diverged (3). Bad input is 2 and other errors 1 (main).
inline constexpr int exit_finished = 0;
inline constexpr int exit_stopped_early = 75;
inline constexpr int exit_diverged = 3;

/// Options that come from the command line, not the deck.
struct RunOptions {
  std::string restart;  ///< "", "latest" or a checkpoint path
  bool quiet = false;   ///< no startup block, step lines or summary (tests)
  bool kernel_times =
      false;  ///< fence and time every kernel of the run (core/kernel_timer.hpp), rank 0's in the summary
};

class Simulation {
 public:
  /// Called after every step with the simulation and the step's record (field output, checkpoints, telemetry).
  using StepObserver = std::function<void(const Simulation&, const StepRecord&)>;

  /// Sets up grid, decomposition, fields and solvers for the deck, and the initial state (or the checkpoint of
  /// options.restart); throws eddy::Error on bad setup or an unusable checkpoint.
  Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options = {});
  ~Simulation();
  /// Runs to the end time or step limit, or until a signal, the wall clock or a STOP file stops it, writing the run
  /// folder (fields, checkpoints, telemetry, summary); returns the exit status (exit_finished, ...).
  int run();

  /// Takes up to `steps` steps, stopping early at end_time or max_steps, writing nothing; returns the steps taken.
  /// Throws time::Diverged (time/blow_up.hpp) when a step leaves NaN/Inf or blows up.
  long long advance(long long steps);
  /// Whether the phase timers charge each phase its device work (exact shares, the default) or time the host only,
  /// which saves two CUDA events per phase on grids whose steps are short.
  void set_exact_phase_times(bool exact);
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
  /// The machine-dependent choices this run made at setup (transports, loop forms, HDF5 writes).
  const TuningPlan& plan() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eddy::time
