#include "solver/poisson_solver.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "fields/shifted_copy.hpp"
#include "solver/chebyshev.hpp"
#include "solver/conjugate_gradient.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"
#include "solver/line_multigrid.hpp"
#include "solver/multigrid.hpp"

#include <cmath>

namespace eddy::solver {
namespace {

// Weight of the Jacobi solver: below 1 so the checkerboard mode of the singular (periodic, neumann) problem decays.
constexpr Real jacobi_solver_weight = 0.9;

PoissonLevel top_level(const PoissonProblem& problem) {
  return {problem.decomp, problem.shape, problem.spacing, problem.faces, problem.timers, problem.exchange_clock};
}

StopCriteria stop_criteria(const config::PoissonConfig& config) {
  return {config.rtol, config.atol, config.max_iterations, std::max(1, config.check_every)};
}

// The solver's criteria with the request's relative residual where it names one.
StopCriteria requested(StopCriteria stop, const SolveRequest& request) {
  if (request.rtol > 0) stop.rtol = request.rtol;
  return stop;
}

class CgSolver : public PoissonSolver {
 public:
  CgSolver(const config::PoissonConfig& config, const PoissonProblem& problem, parallel::Context& context,
           const parallel::Reducer& reducer, bool multigrid_preconditioner)
      : stop_(stop_criteria(config)),
        cg_(top_level(problem), context, reducer, problem.halo_transport, multigrid_preconditioner) {
    // The flexible (Polak-Ribiere) CG does not need a symmetric cycle, and the red-then-black post-smoothing
    // converges faster than the mirrored one (see Multigrid).
    if (multigrid_preconditioner) {
      multigrid_ = std::make_unique<Multigrid>(top_level(problem), context, reducer, config, problem.halo_transport);
    }
  }
  PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) override {
    return cg_.solve(phi, rhs, requested(stop_, request), request, multigrid_.get());
  }
  std::string name() const override { return multigrid_ ? "mg_cg" : "cg"; }
  std::string hierarchy() const override { return multigrid_ ? multigrid_->describe() : std::string(); }
  void fill_ghosts(Field phi) override { cg_.ghosts().fill(phi); }

 private:
  StopCriteria stop_;
  ConjugateGradient cg_;
  std::unique_ptr<Multigrid> multigrid_;
};

// The stationary solvers (multigrid cycles, weighted Jacobi sweeps) share one loop: iterate, and every
// `check_every` iterations measure the residual on the host.
class StationarySolver : public PoissonSolver {
 public:
  StationarySolver(const config::PoissonConfig& config, const PoissonProblem& problem, const parallel::Reducer& reducer)
      : stop_(stop_criteria(config)),
        level_(top_level(problem)),
        reducer_(&reducer),
        b_(fields::make_field("poisson::b", problem.shape)),
        sums_("poisson::sums", 3) {}

  PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) override {
    ProfileRegion region("poisson::" + name());
    const auto& reducer = *reducer_;
    const bool singular = level_.singular();
    const Real shift =
        singular && !request.rhs_mean_free ? global_sum(rhs, level_, reducer) / level_.global_cells() : Real(0);
    // Without a shift the iterations read the right-hand side in place.
    const Field b = shift != 0 ? b_ : rhs;
    if (shift != 0) fields::shifted_copy("poisson::shifted_rhs", b_, rhs, shift);
    if (!request.ghosts_valid) ghosts().fill(phi);
    measure(phi, b);
    auto sums = read_sums<3>(sums_);
    PoissonStats stats;
    stats.initial_residual = stats.final_residual = std::sqrt(sums[0]);
    stats.rhs_norm = std::sqrt(sums[1]);
    stats.history.push_back(stats.initial_residual);
    const StopCriteria stop = requested(stop_, request);
    const Real tolerance = std::max(stop.rtol * stats.rhs_norm, stop.atol);
    stats.converged = stats.initial_residual <= tolerance;
    // Every measurement also sums phi: after the last iteration that sum pins the mean of the singular problem.
    bool phi_summed = true;
    for (int it = 1; !stats.converged && it <= stop.max_iterations; ++it) {
      iterate(phi, b);
      stats.iterations = it;
      phi_summed = false;
      if (it % stop.check_every == 0 || it == stop.max_iterations) {
        measure(phi, b);
        sums = read_sums<3>(sums_);
        stats.final_residual = std::sqrt(sums[0]);
        stats.history.push_back(stats.final_residual);
        stats.converged = stats.final_residual <= tolerance;
        phi_summed = true;
      }
    }
    if (singular && (request.pin_mean || request.measure_mean)) {
      const Real phi_sum = phi_summed ? sums[2] : global_sum(phi, level_, reducer);
      stats.solution_mean = phi_sum / level_.global_cells();
      if (request.pin_mean) subtract_constant(phi, stats.solution_mean);
    }
    complete_ghosts(phi);
    return stats;
  }

  void fill_ghosts(Field phi) override {
    ghosts().fill(phi);
    complete_ghosts(phi);
  }

 protected:
  /// Fills ghosts the iterations leave alone (the z ghosts of a 2D multigrid solve).
  virtual void complete_ghosts(Field) {}
  /// One iteration on L(phi) = b; the ghosts of phi are valid before and after.
  virtual void iterate(Field phi, Field b) = 0;
  /// sums_ = ResidualSums of (phi, b) over all ranks; the ghosts of phi are valid.
  virtual void measure(Field phi, Field b) { residual_sums(phi, b, level_, sums_, *reducer_); }
  virtual GhostFiller& ghosts() = 0;

  StopCriteria stop_;
  PoissonLevel level_;
  const parallel::Reducer* reducer_;
  Field b_;
  Buffer sums_;
};

class MultigridSolver : public StationarySolver {
 public:
  MultigridSolver(const config::PoissonConfig& config, const PoissonProblem& problem, parallel::Context& context,
                  const parallel::Reducer& reducer)
      : StationarySolver(config, problem, reducer),
        multigrid_(top_level(problem), context, reducer, config, problem.halo_transport),
        all_ghosts_(context, top_level(problem), problem.halo_transport) {}
  std::string name() const override { return "multigrid"; }
  std::string hierarchy() const override { return multigrid_.describe(); }

 protected:
  void iterate(Field phi, Field b) override {
    multigrid_.cycle(phi, b, restricted_);
    restricted_ = false;
  }
  // The convergence check restricts the residual it measures (the fastest form of the check on GPUs); without
  // pre-smoothing that restriction is the next cycle's first step.
  void measure(Field phi, Field b) override {
    if (multigrid_.level_count() == 1) {
      restricted_ = false;
      return StationarySolver::measure(phi, b);
    }
    multigrid_.restrict_top(phi, b, sums_, *reducer_);
    restricted_ = multigrid_.restricts_first();
  }
  GhostFiller& ghosts() override { return multigrid_.top_ghosts(); }
  void complete_ghosts(Field phi) override {
    if (level_.decomp.global.dim == 2) all_ghosts_.fill(phi);
  }

 private:
  Multigrid multigrid_;
  GhostFiller all_ghosts_;
  bool restricted_ = false;  // the next level holds the restricted residual of phi as last measured
};

class JacobiSolver : public StationarySolver {
 public:
  JacobiSolver(const config::PoissonConfig& config, const PoissonProblem& problem, parallel::Context& context,
               const parallel::Reducer& reducer)
      : StationarySolver(config, problem, reducer),
        ghosts_(context, top_level(problem), problem.halo_transport),
        r_(fields::make_field("poisson::r", problem.shape)) {}
  std::string name() const override { return "jacobi"; }

 protected:
  void iterate(Field phi, Field b) override {
    residual(r_, phi, b, level_);
    jacobi_correct(phi, r_, level_, jacobi_solver_weight);
    ghosts_.fill(phi);
  }
  GhostFiller& ghosts() override { return ghosts_; }

 private:
  GhostFiller ghosts_;
  Field r_;
};

PressureBoundary pressure_boundary(config::BoundaryType type) {
  switch (type) {
    case config::BoundaryType::periodic:
      return PressureBoundary::periodic;
    case config::BoundaryType::outflow:
      return PressureBoundary::dirichlet;
    case config::BoundaryType::no_slip:
    case config::BoundaryType::moving_wall:
    case config::BoundaryType::free_slip:
    case config::BoundaryType::inflow:
      return PressureBoundary::neumann;
  }
  return PressureBoundary::neumann;
}

}  // namespace

bool PoissonProblem::singular() const {
  for (const auto f : faces) {
    if (f == PressureBoundary::dirichlet) return false;
  }
  return true;
}

std::array<PressureBoundary, 6> pressure_boundaries(const config::BoundaryConfig& boundary, int dimensions) {
  std::array<PressureBoundary, 6> faces{};
  for (int f = 0; f < 6; ++f) {
    faces[f] = (dimensions == 2 && f >= 4) ? PressureBoundary::periodic : pressure_boundary(boundary.faces[f].type);
  }
  return faces;
}

namespace {

// A solver whose exchanges that only enqueue stream work are timed on the device: where phases are timed exactly,
// their time moves after each solve from the phase the solve runs in (poisson) to poisson_halo. The clock is read when
// the timers next wait for the device (PhaseTimers::step()), not here.
class ExchangeTimedSolver : public PoissonSolver {
 public:
  ExchangeTimedSolver(std::shared_ptr<parallel::ExchangeClock> clock, std::unique_ptr<PoissonSolver> solver,
                      PhaseTimers& timers)
      : clock_(std::move(clock)), solver_(std::move(solver)), timers_(&timers) {}
  PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) override {
    PoissonStats stats = solver_->solve(phi, rhs, request);
    if (clock_->timing() && timers_->exact()) {
      timers_->move_from_open_scope(Phase::poisson_halo, [clock = clock_] { return clock->take_seconds(); });
    }
    return stats;
  }
  void fill_ghosts(Field phi) override { solver_->fill_ghosts(phi); }
  std::string name() const override { return solver_->name(); }
  std::string hierarchy() const override { return solver_->hierarchy(); }

 private:
  std::shared_ptr<parallel::ExchangeClock> clock_;  // shared with the timers until they read it
  std::unique_ptr<PoissonSolver> solver_;
  PhaseTimers* timers_;
};

std::unique_ptr<PoissonSolver> make_solver_of_type(const config::PoissonConfig& config, const PoissonProblem& problem,
                                                   parallel::Context& context, const parallel::Reducer& reducer) {
  if (problem.decomp.global.stretched()) {
    require(config.solver == config::PoissonSolverType::multigrid,
            "pressure.solver: a stretched grid is solved by multigrid only");
    return std::make_unique<LineMultigrid>(config, problem, context, reducer);
  }
  switch (config.solver) {
    case config::PoissonSolverType::multigrid:
      return std::make_unique<MultigridSolver>(config, problem, context, reducer);
    case config::PoissonSolverType::mg_cg:
      return std::make_unique<CgSolver>(config, problem, context, reducer, true);
    case config::PoissonSolverType::cg:
      return std::make_unique<CgSolver>(config, problem, context, reducer, false);
    case config::PoissonSolverType::jacobi:
      return std::make_unique<JacobiSolver>(config, problem, context, reducer);
  }
  throw Error("pressure.solver: unknown solver");
}

}  // namespace

std::unique_ptr<PoissonSolver> make_poisson_solver(const config::PoissonConfig& config, const PoissonProblem& problem,
                                                   parallel::Context& context, const parallel::Reducer& reducer) {
  require(config.max_iterations >= 1, "pressure.max_iterations must be at least 1");
  if (problem.timers == nullptr) return make_solver_of_type(config, problem, context, reducer);
  auto clock = std::make_shared<parallel::ExchangeClock>();
  PoissonProblem timed = problem;
  timed.exchange_clock = clock.get();
  return std::make_unique<ExchangeTimedSolver>(clock, make_solver_of_type(config, timed, context, reducer),
                                               *problem.timers);
}

}  // namespace eddy::solver
