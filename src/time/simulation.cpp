#include "time/simulation.hpp"

#include "core/error.hpp"
#include "core/phase_timers.hpp"
#include "fields/face_vector.hpp"
#include "grid/global_grid.hpp"
#include "grid/index_ranges.hpp"
#include "io/checkpoint.hpp"
#include "operators/correction_with_diagnostics.hpp"
#include "operators/flow_diagnostics.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reducer.hpp"
#include "physics/coupled_physics.hpp"
#include "physics/flow_statistics.hpp"
#include "time/blow_up.hpp"
#include "time/initial_conditions.hpp"
#include "time/momentum_stage.hpp"
#include "time/pressure_guess.hpp"
#include "time/projection.hpp"
#include "time/rk_scheme.hpp"
#include "time/setup_report.hpp"
#include "time/state_copy.hpp"
#include "time/time_step.hpp"
#include "time/tuning_plan.hpp"
#include "time/velocity_ghosts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace eddy::time {
namespace {

// target += addend over the whole view, ghosts included.
void add_field(const Field& target, const Field& addend) {
  const auto policy = grid::box({0, 0, 0}, {int(target.extent(0)), int(target.extent(1)), int(target.extent(2))});
  Kokkos::parallel_for(
      "time::add_pressure", policy, KOKKOS_LAMBDA(int i, int j, int k) { target(i, j, k) += addend(i, j, k); });
}

std::vector<std::string> scalar_names(const config::Deck& deck) {
  std::vector<std::string> names;
  for (const auto& scalar : deck.scalars) names.push_back(scalar.name);
  return names;
}

}  // namespace

struct Simulation::Impl {
  Impl(const config::Deck& deck_in, parallel::Context& context_in, const RunOptions& options_in)
      : deck(deck_in),
        context(context_in),
        options(options_in),
        decomp(grid::decompose(grid::global_grid(deck_in), context_in.comm(), deck_in.parallel.process_grid)),
        plan(make_tuning_plan(deck_in, context_in, decomp)),
        shape(fields::local_shape(decomp, 1, plan.pair_planes)),
        grid(operators::make_staggered_grid(decomp, shape)),
        state(fields::FlowState::allocate(shape)),
        last_good(fields::FlowState::allocate(shape)),
        reducer(context_in, plan.reductions),
        timers(deck_in.output.exact_phase_times),
        ghosts(context_in, decomp, state, deck_in.boundary, deck_in.domain.dimensions, plan.halo, plan.overlap,
               deck_in.bodies.empty(), timers, deck_in.constants),
        projection(deck_in, decomp, grid, context_in, reducer, plan, ghosts.boundary().corrected_boundaries(), &timers),
        physics(deck_in, context_in, decomp, grid, plan.halo),
        momentum(shape, physics.has_momentum_sources() || grid.stretched,
                 stage_table(deck_in.time.scheme).reads_tendency(), ghosts.row_ends()),
        stages(stage_table(deck_in.time.scheme)),
        pressure_guess(shape, physics.has_bodies() ? 1 : stages.count,
                       !physics.has_bodies() && deck_in.time.scheme == config::TimeScheme::ssp_rk3),
        statistics(deck_in, decomp, grid, scalar_names(deck_in)) {
    if (physics.has_bodies()) previous_pressure = fields::make_field("previous_pressure", shape);
    if (pressure_guess.keeps_step_start()) last_good.p = Field();  // the guesses keep it
    require(deck.domain.dimensions == 2 || deck.domain.dimensions == 3, "domain.dimensions must be 2 or 3");
    for (const auto& scalar : physics.scalar_fields()) {
      last_good_scalars.push_back({scalar.name, fields::make_field(scalar.name + "_last_good", shape)});
    }
  }

  // The velocity the step started from, which stages with a start weight blend in: after the first fused stage its
  // buffers belong to the last good state, which keep_last_good() otherwise fills by a copy.
  fields::FaceVector start_velocity() const { return {last_good.u, last_good.v, last_good.w}; }

  // The scalars the step started from (keep_last_good() copies them).
  std::vector<Field> start_scalars() const {
    std::vector<Field> start;
    for (const auto& scalar : last_good_scalars) start.push_back(scalar.field);
    return start;
  }

  // Whether the correction of a step's last projection also computes the step's flow diagnostics: it then writes the
  // velocity out of place, into the fused stages' spare buffers (operators/correction_with_diagnostics.hpp).
  bool diagnoses_in_correction() const {
    return momentum.fused() &&
           operators::fits_diagnosed_correction(state, momentum.spare_velocity(), grid, ghosts.row_ends());
  }

  // Projects the velocity with weight alpha dt and restores valid ghosts; returns the Poisson outcome. `request`:
  // what the solve does with the pressure's mean and whether its ghosts are valid; `rhs_built`: the right-hand side
  // is already there (built around the stage's messages, VelocityGhosts::fill_after_stage); `diagnose`: the correction
  // computes the step's diagnostics (diagnoses_in_correction()) into step_diagnostics; `alongside`: work after the
  // correction that touches no velocity, run while the velocity's halo messages are in flight.
  solver::PoissonStats project(Real weight, const solver::SolveRequest& request, bool rhs_built = false,
                               bool diagnose = false, const std::function<void()>& alongside = {}) {
    if (!rhs_built) {
      auto scope = timers.time(Phase::projection);
      projection.build_rhs(state, weight);
    }
    solver::PoissonStats stats;
    {
      auto scope = timers.time(Phase::poisson);
      stats = projection.solve(state, request);
    }
    {
      auto scope = timers.time(Phase::projection);
      if (diagnose) {
        step_diagnostics = projection.correct_into(state, momentum.spare_velocity(), weight, ghosts.row_ends());
        momentum.adopt_spare_velocity(state, grid);
      } else {
        projection.correct(state, weight, ghosts.row_ends());
      }
    }
    ghosts.fill(state, false, 0, !ghosts.row_ends().empty(), alongside);
    return stats;
  }

  // With bodies the projection is incremental: u* -= alpha dt grad(p) of the last stage before the forcing, so the
  // forcing sees (and its force estimate counts) the pressure gradient at this stage's weight, and the projection
  // only solves for the change of p. Without bodies both give the same velocity (the projection removes any
  // gradient); with them, the velocity the projection leaves at the forced faces drops from O(dt grad p) to
  // O(dt grad dp), so the no-slip condition holds more closely and the force does not depend on the previous step's
  // dt. Ghosts are refilled afterwards; state.p is zeroed to warm-start the increment.
  void predict_with_previous_pressure(Real weight) {
    {
      auto scope = timers.time(Phase::projection);
      projection.correct(state, weight, ghosts.row_ends());
      Kokkos::deep_copy(previous_pressure, state.p);
      Kokkos::deep_copy(state.p, 0);
    }
    ghosts.fill(state, false, 0, !ghosts.row_ends().empty());
  }

  // Initial field, made divergence-free, and the first diagnostics (for the first step size).
  void initialise() {
    if (!options.restart.empty()) return restart_from_checkpoint();
    ghosts.boundary().set_time(0);
    set_initial_velocity(deck, decomp, state, context.comm());
    ghosts.fill(state, true);
    solver::SolveRequest free_mean;
    free_mean.pin_mean = false;
    project(1.0, free_mean);
    // The initial projection's pressure is that of an impulse, not the flow's: the first solve starts from the deck's.
    set_initial_pressure(deck, decomp, state, context.comm());
    projection.fill_pressure_ghosts(state.p);
    physics.initialise();
    reduce_diagnostics();
  }

  // The state of a checkpoint, continued exactly as the run that wrote it would have gone on. A checkpoint holds
  // u, v, w, p (the pressure warm-starts the next solve), the stage pressure changes of the last step (the other
  // stages' initial guesses), every transported scalar, time, step and the last dt (the adaptive growth cap). Nothing
  // else carries over: each step's stages start afresh (the first has zeta = 0, so
  // neither the momentum nor the scalar right-hand side of the step before enters), the body forces are summed per
  // step, and the buoyancy follows from the temperature. Ghosts and the low boundary faces are not stored: the
  // boundary conditions and the halo exchange define them. apply() also resets the high outflow faces, which the
  // checkpoint holds as the projection left them, so the stored values are put back before the final ghost fill.
  void restart_from_checkpoint() {
    const io::Checkpointer checkpoints(deck, decomp, shape, context, deck.output.directory, "");
    const io::CheckpointMeta meta = [&] {
      try {
        return checkpoints.load(options.restart, state, physics.scalar_fields(), checkpointed_fields(true),
                                physics::FlowStatistics::window_number_names());
      } catch (const Error& e) {
        const std::string message = e.what();
        if (message.starts_with("--restart")) throw;
        throw Error("--restart " + options.restart + ": " + message, e.ranks());
      }
    }();
    std::vector<std::string> guesses;
    for (const auto& name : meta.warm_start) {
      if (!name.starts_with(statistics_prefix)) guesses.push_back(name);
    }
    pressure_guess.restore(guesses, state.p);
    if (guesses.size() < meta.warm_start.size()) statistics.restore(meta.numbers);
    ghosts.boundary().set_time(meta.time);
    physics.set_boundary_time(meta.time);
    // The solves read the ghosts of their guesses as they are (guesses combine pressures over every view point).
    projection.fill_pressure_ghosts(state.p);
    for (const auto& kept : pressure_guess.recorded_fields()) projection.fill_pressure_ghosts(kept.field);
    physics.restore_scalar_ghosts();
    copy_velocity(state, last_good);
    ghosts.fill(state, true);
    copy_owned_velocity(last_good, state);
    ghosts.fill(state, false);
    sim_time = meta.time;
    step_count = meta.step;
    previous_dt = meta.dt;
    restart_point = RestartPoint{meta.time, meta.step};
    reduce_diagnostics();
    if (talkative()) std::printf("restarted from %s at step %lld, t = %.6g\n", meta.path.c_str(), meta.step, meta.time);
  }

  // The solver and statistics fields a checkpoint holds besides the flow and the scalars: the pressure guesses'
  // kept fields (all of them to read into, the recorded ones to write) and the statistics' sums.
  std::vector<fields::NamedField> checkpointed_fields(bool reading) const {
    auto fields = reading ? pressure_guess.all_fields() : pressure_guess.recorded_fields();
    for (const auto& sum : statistics.sum_fields()) fields.push_back(sum);
    return fields;
  }
  static constexpr std::string_view statistics_prefix = "statistics_";

  // Keeps the state before a step, written as the last good state if the step diverges. The fused stages hand over
  // the velocity's buffers after the first stage (MomentumStage::hand_over_start_velocity), so only the unused w of
  // 2D is copied here; with the stored tendency the update runs in place and the velocity is copied. The pressure
  // guesses keep the step's starting pressure among their own buffers; without them it is copied.
  void keep_last_good() {
    if (!momentum.fused()) {
      copy_velocity(state, last_good);
    } else if (!grid.three_d) {
      Kokkos::deep_copy(ExecSpace(), last_good.w, state.w);
    }
    if (!pressure_guess.keeps_step_start()) Kokkos::deep_copy(ExecSpace(), last_good.p, state.p);
    const auto scalars = physics.scalar_fields();
    for (std::size_t n = 0; n < scalars.size(); ++n) Kokkos::deep_copy(last_good_scalars[n].field, scalars[n].field);
    last_good_step = {step_count, sim_time, previous_dt};
  }

  // The state before the current step, as keep_last_good() and the step's first stage and solve left it; for a step
  // that is abandoned (it spends the pressure guesses).
  fields::FlowState abandon_step() {
    fields::FlowState good = last_good;
    if (pressure_guess.keeps_step_start()) good.p = pressure_guess.abandon_step();
    return good;
  }

  // Combines the rank diagnostics: one sum (kinetic energy) and one max (divergence, velocity rate); those the step's
  // last correction computed, where it did.
  void reduce_diagnostics() {
    auto scope = timers.time(Phase::reduction);
    const operators::LocalDiagnostics local =
        step_diagnostics ? *step_diagnostics : operators::local_flow_diagnostics(state, grid);
    step_diagnostics.reset();
    const auto maxima =
        reducer.allreduce(std::array<Real, 2>{local.max_divergence, local.velocity_rate}, parallel::ReduceOp::max);
    kinetic_energy = reducer.sum(local.kinetic_energy);
    max_divergence = maxima[0];
    velocity_rate = maxima[1];
  }

  // One step of the integrator: the stages of the scheme, each a predictor and a projection.
  void take_step() {
    Kokkos::Timer wall;
    const StepStart start = begin_step();
    StepRecord record;
    for (int s = 0; s < stages.count; ++s) {
      const Stage& stage = stages.stages[s];
      const Real stage_dt = start.dt * stage.alpha();
      // The boundary data of the stage's velocity: at the time its result stands for, the next stage's or the step's
      // end.
      const double stage_end = sim_time + start.dt * (s + 1 < stages.count ? stages.stages[s + 1].time : 1.0);
      ghosts.boundary().set_time(stage_end);
      physics.set_boundary_time(stage_end);
      advance_velocity(s, start.dt);           // u* = u_k + dt (gamma R_k + zeta R_{k-1}) + beta (u_0 - u_k)
      physics.hold_flow_rate(state, reducer);  // a constant flow rate, where the deck has one
      const bool rhs_built = fill_stage_ghosts(stage, stage_dt);   // halo exchange, then boundary conditions
      force_bodies(stage, stage_dt);                               // immersed bodies, where the deck has any
      count_solve(record, project_stage(s, stage_dt, rhs_built));  // divergence, Poisson solve, correction
    }
    end_step(start, record);
    record.wall_seconds = wall.seconds();  // after end_step, which waits for the step's device work
    history.push_back(record);
  }

  // The time step and the velocity rate it was chosen for.
  struct StepStart {
    double dt = 0, rate = 0;
  };

  // Keeps the state a diverging step falls back to, chooses dt and refreshes the convective outflow velocity.
  StepStart begin_step() {
    timers.start_step();
    {
      auto scope = timers.time(Phase::advance);
      keep_last_good();
    }
    const double rate = velocity_rate;
    const StepLimits limits =
        step_limits(deck.time, largest_diffusivity(deck).value, grid.smallest, deck.domain.dimensions, rate);
    const double dt =
        choose_time_step(deck.time, limits, sim_time, previous_dt, next_output_time(deck.output, sim_time));
    require(dt > 0 && std::isfinite(dt),
            "step " + std::to_string(step_count + 1) + ": time step is not positive (" + std::to_string(dt) + ")");
    {
      auto scope = timers.time(Phase::boundary);
      ghosts.boundary().update_convective_velocity(state, reducer);
    }
    return {dt, rate};
  }

  // Stage s's predictor: u* from the momentum equation with the physics' sources, and the scalars of the stage.
  void advance_velocity(int s, double dt) {
    auto scope = timers.time(Phase::advance);
    const Stage& stage = stages.stages[s];
    const operators::StageWeights weights{Real(dt * stage.gamma), Real(dt * stage.zeta), stages.next_reads_tendency(s),
                                          Real(stage.beta)};
    momentum.compute(
        state, start_velocity(), grid, deck.numerics.advection, deck.physics.viscosity, weights,
        [&](const fields::FaceVector& rhs) { physics.add_momentum_sources(rhs, sim_time + stage.time * dt); });
    physics.advance_scalars(state, weights.current, weights.previous, weights.start, start_scalars(),
                            sim_time + stage.time * dt);
    if (momentum.finish(state, grid) && s == 0) momentum.hand_over_start_velocity(last_good, grid);
  }

  // The ghosts of u* with the stage's weight; true where the projection's right-hand side was built around the
  // messages (not with bodies, whose forcing comes first).
  bool fill_stage_ghosts(const Stage& stage, Real stage_dt) {
    const bool build_rhs = ghosts.overlaps() && !physics.has_bodies();
    const auto rhs_in = [&](const grid::IndexBox& box) { projection.build_rhs_in(state, stage_dt, box); };
    ghosts.fill_after_stage(
        state, stage_dt, stage.beta, start_velocity(), momentum.writes_row_ends(),
        build_rhs ? std::function<void(const grid::IndexBox&)>(rhs_in) : std::function<void(const grid::IndexBox&)>());
    return build_rhs;
  }

  // With bodies: the velocity predicted with the last stage's pressure, then forced to the bodies' velocity.
  void force_bodies(const Stage& stage, Real stage_dt) {
    if (!physics.has_bodies()) return;
    predict_with_previous_pressure(stage_dt);
    {
      auto scope = timers.time(Phase::advance);
      // The forcing's change of u* is the stage's force times alpha dt; the step's force weighs it by force_weight.
      physics.force_bodies(state, stage_dt / stage.force_weight);
    }
    ghosts.fill(state, false);
  }

  // Stage s's projection with weight `stage_dt`: the right-hand side (unless `rhs_built`), the solve from the stage's
  // guess, the correction (with the step's diagnostics at its last stage), and the next stage's guess while the
  // corrected velocity's messages travel. With bodies the solve is for the pressure's change.
  solver::PoissonStats project_stage(int s, Real stage_dt, bool rhs_built) {
    const bool bodies = physics.has_bodies();
    // The stages use only the pressure's gradient: its mean is fixed once, after the last stage (every stage with
    // bodies, whose incremental pressure adds up over the stages). The guesses may remove the mean after the step
    // (PressureGuess::end_step) instead. The pressure's ghosts are valid: it is a solve's result, a guess combining
    // such, or zero (with bodies).
    const bool last_stage = s + 1 == stages.count;
    solver::SolveRequest request;
    request.measure_mean = last_stage && pressure_guess.removes_mean_at_step_end();
    request.pin_mean = (last_stage && !request.measure_mean) || bodies;
    request.ghosts_valid = true;
    // The earlier stages may stop at pressure.intermediate_rtol: the last stage's right-hand side also holds the
    // divergence they left, and its solve to pressure.rtol removes it with the rest.
    if (!last_stage) request.rtol = deck.pressure.intermediate_rtol;
    // The next stage's guess reads only pressures: it is made while the corrected velocity's messages travel.
    const bool guess_next = !bodies && !last_stage;
    const auto make_next_guess = [&] {
      auto scope = timers.time(Phase::projection);
      pressure_guess.after_solve();
      pressure_guess.before_solve(state.p, s + 1);
    };
    if (!bodies && s == 0) pressure_guess.before_solve(state.p, s);
    const solver::PoissonStats stats =
        project(stage_dt, request, rhs_built, last_stage && diagnoses_in_correction(),
                guess_next ? std::function<void()>(make_next_guess) : std::function<void()>());
    if (!bodies && !guess_next) pressure_guess.after_solve();
    if (request.measure_mean) pressure_mean = stats.solution_mean;
    if (bodies) {
      auto scope = timers.time(Phase::projection);
      add_field(state.p, previous_pressure);
    }
    return stats;
  }

  // Adds a stage's solve to the step's record: iterations, and the residuals relative to the right-hand side.
  static void count_solve(StepRecord& record, const solver::PoissonStats& stats) {
    const auto relative = [&](double residual) { return stats.rhs_norm > 0 ? residual / stats.rhs_norm : residual; };
    record.poisson_iterations += stats.iterations;
    record.poisson_residual = relative(stats.final_residual);
    record.poisson_guess_residual = std::max(record.poisson_guess_residual, relative(stats.initial_residual));
  }

  // Advances time, reduces the diagnostics, checks for a blow-up and hands the step to the outputs and observers.
  void end_step(const StepStart& start, StepRecord& record) {
    sim_time += start.dt;
    previous_dt = start.dt;
    ++step_count;
    reduce_diagnostics();
    record.step = step_count;
    record.time = sim_time;
    record.dt = start.dt;
    record.cfl = start.dt * start.rate;
    record.kinetic_energy = kinetic_energy;
    record.max_divergence = max_divergence;
    {
      auto scope = timers.time(Phase::reduction);
      physics.finish_step(state, record, reducer);
    }
    if (statistics.enabled()) {
      auto scope = timers.time(Phase::output);
      std::vector<Field> scalars;
      for (const auto& scalar : physics.scalar_fields()) scalars.push_back(scalar.field);
      statistics.after_step(state, scalars, sim_time, start.dt, step_count);
    }
    check_for_blow_up(record, start.dt * velocity_rate, deck.time, state, decomp);
    // After the check: the guess overwrites the oldest kept pressure, which holds the last good state's until then.
    if (pressure_guess.removes_mean_at_step_end()) {
      auto scope = timers.time(Phase::projection);
      pressure_guess.end_step(state.p, pressure_mean);
    }
    {
      auto scope = timers.time(Phase::output);
      for (const auto& observer : observers) observer.second(record);
    }
    record.phase_seconds = timers.step();
  }

  bool talkative() const { return context.rank() == 0 && !options.quiet; }

  bool finished() const { return sim_time >= deck.time.end_time * (1 - 1e-12) || step_count >= deck.time.max_steps; }

  config::Deck deck;
  parallel::Context& context;
  RunOptions options;
  grid::Decomposition decomp;
  TuningPlan plan;  // the machine-dependent choices, made once
  fields::LocalShape shape;
  operators::StaggeredGrid grid;
  fields::FlowState state;
  fields::FlowState last_good;                        // the state before the current step
  std::vector<fields::NamedField> last_good_scalars;  // the scalars before the current step
  struct {
    long long step = 0;
    double time = 0, dt = 0;
  } last_good_step;
  parallel::Reducer reducer;
  PhaseTimers timers;     // before the ghosts and the projection, which charge their work to it
  VelocityGhosts ghosts;  // halo exchanges and boundary conditions of the velocity
  Projection projection;
  physics::CoupledPhysics physics;
  MomentumStage momentum;   // the velocity's Runge-Kutta stages and their right-hand-side buffers
  Field previous_pressure;  // p of the last stage while the incremental projection solves for its change (bodies)
  StageTable stages;
  PressureGuess pressure_guess;  // the stage pressure solves' initial guesses (not with bodies: p is an increment)
  physics::FlowStatistics statistics;  // running time averages
  std::vector<StepRecord> history;
  std::vector<std::pair<int, StepObserver>> observers;  // with their handles
  int last_observer = 0;                                // the handle given last
  std::optional<RestartPoint> restart_point;
  double sim_time = 0;
  double previous_dt = 0;
  long long step_count = 0;
  double kinetic_energy = 0, max_divergence = 0, velocity_rate = 0;
  std::optional<operators::LocalDiagnostics> step_diagnostics;  // computed by the step's last correction (project())
  Real pressure_mean = 0;  // the mean the step's last solve left in the pressure, for PressureGuess::end_step
};

Simulation::Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options)
    : impl_(std::make_unique<Impl>(deck, context, options)) {
  if (context.rank() == 0 && !options.quiet) {
    print_startup(impl_->deck, impl_->decomp,
                  {impl_->projection.solver_name(), impl_->projection.solver_hierarchy(), impl_->plan.describe()});
  }
  impl_->initialise();
}

Simulation::~Simulation() = default;

long long Simulation::advance(long long steps) {
  long long taken = 0;
  while (taken < steps && !finished()) {
    impl_->take_step();
    ++taken;
  }
  return taken;
}

bool Simulation::finished() const { return impl_->finished(); }
int Simulation::add_step_observer(StepObserver observer) {
  impl_->observers.push_back({++impl_->last_observer, std::move(observer)});
  return impl_->last_observer;
}
void Simulation::remove_step_observer(int handle) {
  auto& observers = impl_->observers;
  observers.erase(std::remove_if(observers.begin(), observers.end(), [&](const auto& o) { return o.first == handle; }),
                  observers.end());
}
void Simulation::take_step() { impl_->take_step(); }
LastGoodState Simulation::abandon_step() {
  const auto& good = impl_->last_good_step;
  return {impl_->abandon_step(), impl_->last_good_scalars, good.time, good.dt, good.step};
}
const RunOptions& Simulation::options() const { return impl_->options; }
parallel::Context& Simulation::context() const { return impl_->context; }
const fields::LocalShape& Simulation::shape() const { return impl_->shape; }
std::vector<fields::NamedField> Simulation::scalar_fields() const { return impl_->physics.scalar_fields(); }
std::vector<fields::NamedField> Simulation::warm_start_fields() const { return impl_->checkpointed_fields(false); }
std::vector<std::pair<std::string, double>> Simulation::warm_start_numbers() const {
  return impl_->statistics.enabled() ? impl_->statistics.window_numbers()
                                     : std::vector<std::pair<std::string, double>>{};
}
const physics::FlowStatistics& Simulation::statistics() const { return impl_->statistics; }
double Simulation::previous_dt() const { return impl_->previous_dt; }
const std::optional<RestartPoint>& Simulation::restart_point() const { return impl_->restart_point; }
std::string Simulation::solver_name() const { return impl_->projection.solver_name(); }
PhaseTimers& Simulation::timers() { return impl_->timers; }
const fields::FlowState& Simulation::state() const { return impl_->state; }
const grid::Decomposition& Simulation::decomposition() const { return impl_->decomp; }
void Simulation::set_exact_phase_times(bool exact) { impl_->timers.set_exact(exact); }
double Simulation::time() const { return impl_->sim_time; }
double Simulation::kinetic_energy() const { return impl_->kinetic_energy; }
long long Simulation::step() const { return impl_->step_count; }
const std::vector<StepRecord>& Simulation::history() const { return impl_->history; }
const config::Deck& Simulation::deck() const { return impl_->deck; }
const physics::CoupledPhysics& Simulation::physics() const { return impl_->physics; }
physics::LineTable Simulation::sample_line(int n) const {
  return impl_->physics.sample_line(n, impl_->state, impl_->reducer);
}
const TuningPlan& Simulation::plan() const { return impl_->plan; }

}  // namespace eddy::time
