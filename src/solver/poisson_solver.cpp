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
#include "solver/stationary_solver.hpp"

#include <cmath>

namespace eddy::solver {
namespace {

// Weight of the Jacobi solver: below 1 so the checkerboard mode of the singular (periodic, neumann) problem decays.
constexpr Real jacobi_solver_weight = 0.9;

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
