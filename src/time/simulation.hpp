#pragma once
// A whole run: set up from a resolved deck, march in time, write output, report where the time went.
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"
#include "physics/probes.hpp"
#include "time/tuning_plan.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eddy::physics {
class CoupledPhysics;
class FlowStatistics;
}  // namespace eddy::physics

namespace eddy::time {

/// Options that come from the command line, not the deck.
struct RunOptions {
  std::string restart;  ///< "", "latest" or a checkpoint path
  bool quiet = false;   ///< no startup block, step lines or summary (tests)
  bool kernel_times =
      false;  ///< fence and time every kernel of the run (core/kernel_timer.hpp), rank 0's in the summary
};

/// Where a restarted run picks up.
struct RestartPoint {
  double time = 0;
  long long step = 0;
};

/// The state before the step that diverged, for the checkpoint a run leaves behind.
struct LastGoodState {
  fields::FlowState flow;
  std::vector<fields::NamedField> scalars;
  double time = 0, dt = 0;
  long long step = 0;
};

// The numerics of a run: the state, the integrator's steps and what they need. Run management (outputs, control,
// progress, summary) drives it from run/run_case.hpp.
class Simulation {
 public:
  /// Called after every step with the step's record, inside the timed output phase (field output, checkpoints).
  using StepObserver = std::function<void(const StepRecord&)>;

  /// Sets up grid, decomposition, fields and solvers for the deck, and the initial state (or the checkpoint of
  /// options.restart); throws eddy::Error on bad setup or an unusable checkpoint.
  Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options = {});
  ~Simulation();
  /// Takes up to `steps` steps, stopping early at end_time or max_steps, writing nothing; returns the steps taken.
  /// Throws time::Diverged (time/blow_up.hpp) when a step leaves NaN/Inf or blows up.
  long long advance(long long steps);
  /// Takes one step, whatever end_time and max_steps say; throws time::Diverged as advance() does.
  void take_step();
  /// After a step that threw time::Diverged: the state before it (spends the pressure guesses of the step).
  LastGoodState abandon_step();
  /// Whether the phase timers charge each phase its device work (exact shares, the default) or time the host only,
  /// which saves two CUDA events per phase on grids whose steps are short.
  void set_exact_phase_times(bool exact);
  /// True once end_time or max_steps is reached.
  bool finished() const;
  /// Registers a call made after every step, inside the timed output phase; returns its handle.
  int add_step_observer(StepObserver observer);
  /// Stops calling the observer of `handle`.
  void remove_step_observer(int handle);

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
  /// Line n of the deck's `lines` sampled from the current state (collective).
  physics::LineTable sample_line(int n) const;
  /// The machine-dependent choices this run made at setup (transports, loop forms, HDF5 writes).
  const TuningPlan& plan() const;
  /// The options it was built with.
  const RunOptions& options() const;
  /// The ranks it runs on.
  parallel::Context& context() const;
  /// The shape of this rank's fields.
  const fields::LocalShape& shape() const;
  /// The transported scalars (live fields).
  std::vector<fields::NamedField> scalar_fields() const;
  /// The fields the pressure guesses keep and the statistics' sums, which a checkpoint holds so that a restart
  /// continues exactly.
  std::vector<fields::NamedField> warm_start_fields() const;
  /// The numbers a checkpoint holds for the same purpose (the statistics' averaging window).
  std::vector<std::pair<std::string, double>> warm_start_numbers() const;
  /// The running time averages (deck section `statistics`).
  const physics::FlowStatistics& statistics() const;
  /// The last step's dt (the adaptive step's growth cap after a restart).
  double previous_dt() const;
  /// Where the run restarted from, if it did.
  const std::optional<RestartPoint>& restart_point() const;
  /// The pressure solver's name for logs.
  std::string solver_name() const;
  /// The phase timers every part of the step charges.
  PhaseTimers& timers();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eddy::time
