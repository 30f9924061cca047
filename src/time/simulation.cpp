#include "time/simulation.hpp"

#include "boundary/velocity_boundary.hpp"
#include "core/error.hpp"
#include "core/phase_timers.hpp"
#include "fields/face_vector.hpp"
#include "operators/advection.hpp"
#include "operators/diffusion.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reducer.hpp"
#include "physics/coupled_physics.hpp"
#include "time/flow_diagnostics.hpp"
#include "time/initial_conditions.hpp"
#include "time/projection.hpp"
#include "time/rk_scheme.hpp"
#include "time/run_log.hpp"
#include "time/stage_update.hpp"
#include "time/time_step.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace eddy::time {
namespace {

// The global grid the deck describes; an axis is periodic when both of its faces are.
grid::GlobalGrid global_grid(const config::Deck& deck) {
  grid::GlobalGrid g;
  g.dim = deck.domain.dimensions;
  for (int a = 0; a < 3; ++a) {
    g.cells[a] = deck.domain.cells[a];
    g.length[a] = deck.domain.length[a];
    g.origin[a] = deck.domain.origin[a];
    const bool low = deck.boundary.face(a, 0).type == config::BoundaryType::periodic;
    const bool high = deck.boundary.face(a, 1).type == config::BoundaryType::periodic;
    require(low == high, "boundary: axis " + std::string(1, "xyz"[a]) + " is periodic on one side only");
    g.periodic[a] = low;
  }
  if (g.dim == 2) {
    g.cells[2] = 1;
    g.periodic[2] = true;
  }
  return g;
}

std::vector<Field> velocity_fields(const fields::FlowState& state, int dimensions) {
  if (dimensions == 3) return {state.u, state.v, state.w};
  return {state.u, state.v};
}

}  // namespace

struct Simulation::Impl {
  Impl(const config::Deck& deck_in, parallel::Context& context_in, const RunOptions& options_in)
      : deck(deck_in),
        context(context_in),
        options(options_in),
        decomp(grid::decompose(global_grid(deck_in), context_in.comm(), deck_in.parallel.process_grid)),
        shape(fields::local_shape(decomp, 1)),
        grid(operators::make_staggered_grid(decomp, shape)),
        state(fields::FlowState::allocate(shape)),
        rhs_current(fields::FaceVector::allocate("rhs_current", shape)),
        rhs_previous(fields::FaceVector::allocate("rhs_previous", shape)),
        reducer(context_in, deck_in.parallel.reduction_backend),
        halo(context_in, decomp, shape, velocity_fields(state, deck_in.domain.dimensions), 1,
             deck_in.parallel.halo_backend),
        boundary(deck_in.boundary, decomp, shape),
        projection(deck_in, decomp, grid, context_in, reducer, boundary.corrected_boundaries()),
        physics(deck_in, context_in, decomp, grid),
        stages(stage_table(deck_in.time.scheme)) {
    require(deck.domain.dimensions == 2 || deck.domain.dimensions == 3, "domain.dimensions must be 2 or 3");
  }

  // Fills ghosts from neighbours, then the physical boundaries (normal faces too when `normal_faces`).
  void fill_velocity_ghosts(bool normal_faces, Real stage_dt) {
    {
      auto scope = timers.time(Phase::halo);
      halo.exchange();
    }
    auto scope = timers.time(Phase::boundary);
    if (normal_faces) {
      boundary.apply(state, stage_dt);
    } else {
      boundary.apply_tangential(state);
    }
  }

  // Projects the velocity with weight alpha dt and restores valid ghosts; returns the Poisson outcome.
  solver::PoissonStats project(Real weight) {
    {
      auto scope = timers.time(Phase::projection);
      projection.build_rhs(state, weight);
    }
    solver::PoissonStats stats;
    {
      auto scope = timers.time(Phase::poisson);
      stats = projection.solve(state);
    }
    {
      auto scope = timers.time(Phase::projection);
      projection.correct(state, weight);
    }
    fill_velocity_ghosts(false, 0);
    return stats;
  }

  // Initial field, made divergence-free, and the first diagnostics (for the first step size).
  void initialise() {
    require(options.restart.empty(), "restart from a checkpoint is not available in this build");
    set_initial_velocity(deck.initial, decomp, state);
    fill_velocity_ghosts(true, 0);
    project(1.0);
    Kokkos::deep_copy(state.p, 0);
    physics.initialise();
    reduce_diagnostics();
  }

  // Combines the rank diagnostics: one sum (kinetic energy) and one max (divergence, velocity rate).
  void reduce_diagnostics() {
    auto scope = timers.time(Phase::reduction);
    const LocalDiagnostics local = local_flow_diagnostics(state, grid);
    const auto maxima =
        reducer.allreduce(std::array<Real, 2>{local.max_divergence, local.velocity_rate}, parallel::ReduceOp::max);
    kinetic_energy = reducer.sum(local.kinetic_energy);
    max_divergence = maxima[0];
    velocity_rate = maxima[1];
  }

  // One step of the integrator: the stages of the scheme, each a predictor and a projection.
  void take_step() {
    timers.start_step();
    Kokkos::Timer wall;
    StepRecord record;
    const double rate = velocity_rate;
    const StepLimits limits =
        step_limits(deck.time, deck.physics.viscosity, grid.spacing, deck.domain.dimensions, rate);
    const double dt = choose_time_step(deck.time, limits, sim_time);
    require(dt > 0 && std::isfinite(dt),
            "step " + std::to_string(step_count + 1) + ": time step is not positive (" + std::to_string(dt) + ")");
    {
      auto scope = timers.time(Phase::boundary);
      boundary.update_convective_velocity(state, reducer);
    }
    for (int s = 0; s < stages.count; ++s) {
      const Stage& stage = stages.stages[s];
      {
        auto scope = timers.time(Phase::advance);
        operators::compute_advection(state, rhs_current, grid, deck.numerics.advection);
        operators::add_diffusion(state, rhs_current, grid, deck.physics.viscosity);
        physics.add_momentum_sources(rhs_current);
        physics.advance_scalars(state, dt * stage.gamma, dt * stage.zeta);
        apply_stage_update(state, rhs_current, rhs_previous, dt * stage.gamma, dt * stage.zeta, grid);
      }
      fill_velocity_ghosts(true, dt * stage.alpha());
      if (physics.has_bodies()) {
        {
          auto scope = timers.time(Phase::advance);
          physics.force_bodies(state, dt);
        }
        fill_velocity_ghosts(false, 0);
      }
      const solver::PoissonStats stats = project(dt * stage.alpha());
      record.poisson_iterations += stats.iterations;
      record.poisson_residual = stats.rhs_norm > 0 ? stats.final_residual / stats.rhs_norm : stats.final_residual;
      std::swap(rhs_current, rhs_previous);
    }
    sim_time += dt;
    ++step_count;
    reduce_diagnostics();
    record.step = step_count;
    record.time = sim_time;
    record.dt = dt;
    record.cfl = dt * rate;
    record.kinetic_energy = kinetic_energy;
    record.max_divergence = max_divergence;
    {
      auto scope = timers.time(Phase::reduction);
      physics.finish_step(record, reducer);
    }
    if (!std::isfinite(kinetic_energy))
      throw Error("step " + std::to_string(step_count) + ": kinetic energy is " + std::to_string(kinetic_energy) +
                  " (the run diverged)");
    if (!std::isfinite(max_divergence))
      throw Error("step " + std::to_string(step_count) + ": max divergence is " + std::to_string(max_divergence) +
                  " (the run diverged)");
    {
      auto scope = timers.time(Phase::output);
      for (const auto& observer : observers) observer(*owner, record);
    }
    record.wall_seconds = wall.seconds();
    record.phase_seconds = timers.step();
    history.push_back(record);
    if (context.rank() == 0 && !options.quiet && deck.output.log_interval > 0 &&
        step_count % deck.output.log_interval == 0) {
      print_step(record);
    }
  }

  bool finished() const { return sim_time >= deck.time.end_time * (1 - 1e-12) || step_count >= deck.time.max_steps; }

  config::Deck deck;
  parallel::Context& context;
  RunOptions options;
  grid::Decomposition decomp;
  fields::LocalShape shape;
  operators::StaggeredGrid grid;
  fields::FlowState state;
  fields::FaceVector rhs_current, rhs_previous;
  parallel::Reducer reducer;
  parallel::HaloExchange halo;
  boundary::VelocityBoundary boundary;
  Projection projection;
  physics::CoupledPhysics physics;
  StageTable stages;
  PhaseTimers timers;
  std::vector<StepRecord> history;
  std::vector<StepObserver> observers;
  const Simulation* owner = nullptr;
  double sim_time = 0;
  long long step_count = 0;
  double kinetic_energy = 0, max_divergence = 0, velocity_rate = 0;
};

Simulation::Simulation(const config::Deck& deck, parallel::Context& context, const RunOptions& options)
    : impl_(std::make_unique<Impl>(deck, context, options)) {
  impl_->owner = this;
  if (context.rank() == 0 && !options.quiet) {
    print_startup(impl_->deck, impl_->decomp,
                  {impl_->halo.backend_name(), impl_->reducer.backend_name(), impl_->projection.solver_name()});
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

int Simulation::run() {
  Kokkos::Timer wall;
  const double limit = impl_->deck.time.wall_time_limit;
  long long steps = 0;
  while (!finished()) {
    steps += advance(1);
    if (limit > 0 && wall.seconds() > limit) break;
  }
  const double seconds = wall.seconds();
  if (impl_->context.rank() == 0 && !impl_->options.quiet) {
    if (!finished()) std::printf("stopped at the wall-time limit of %.1f s\n", limit);
    print_summary(steps, seconds, impl_->decomp.global.total_cells(), impl_->decomp.size, impl_->timers.total());
    impl_->physics.print_summary(impl_->context.rank());
  }
  return 0;
}

bool Simulation::finished() const { return impl_->finished(); }
void Simulation::add_step_observer(StepObserver observer) { impl_->observers.push_back(std::move(observer)); }
const fields::FlowState& Simulation::state() const { return impl_->state; }
const grid::Decomposition& Simulation::decomposition() const { return impl_->decomp; }
double Simulation::time() const { return impl_->sim_time; }
double Simulation::kinetic_energy() const { return impl_->kinetic_energy; }
long long Simulation::step() const { return impl_->step_count; }
const std::vector<StepRecord>& Simulation::history() const { return impl_->history; }
const config::Deck& Simulation::deck() const { return impl_->deck; }
const physics::CoupledPhysics& Simulation::physics() const { return impl_->physics; }

}  // namespace eddy::time
