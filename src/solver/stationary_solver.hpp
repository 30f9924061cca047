#pragma once
// The loop the stationary Poisson solvers share (multigrid cycles, line multigrid cycles, weighted Jacobi sweeps):
// remove the right-hand side's mean where the problem is singular, iterate, measure the residual on the host every
// `check_every` iterations, and pin or measure the solution's mean.
#include "solver/conjugate_gradient.hpp"
#include "solver/poisson_level.hpp"
#include "solver/poisson_solver.hpp"

namespace eddy::solver {

/// The level of a problem's own grid.
PoissonLevel top_level(const PoissonProblem& problem);
/// The deck's stopping criteria.
StopCriteria stop_criteria(const config::PoissonConfig& config);
/// The solver's criteria with the request's relative residual where it names one.
StopCriteria requested(StopCriteria stop, const SolveRequest& request);

/// A PoissonSolver that iterates until the residual criteria hold; subclasses give the iteration.
class StationarySolver : public PoissonSolver {
 public:
  StationarySolver(const config::PoissonConfig& config, const PoissonProblem& problem,
                   const parallel::Reducer& reducer);
  PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) override;
  void fill_ghosts(Field phi) override;

 protected:
  /// Fills ghosts the iterations leave alone (the z ghosts of a 2D multigrid solve).
  virtual void complete_ghosts(Field) {}
  /// One iteration on L(phi) = b; the ghosts of phi are valid before and after.
  virtual void iterate(Field phi, Field b) = 0;
  /// sums_ = ResidualSums of (phi, b) over all ranks; the ghosts of phi are valid.
  virtual void measure(Field phi, Field b);
  /// The mean removed from the right-hand side of a singular problem (the cells' plain mean on a uniform grid).
  virtual Real rhs_mean(Field rhs);
  virtual GhostFiller& ghosts() = 0;

  StopCriteria stop_;
  PoissonLevel level_;
  const parallel::Reducer* reducer_;
  Field b_;
  Buffer sums_;
};

}  // namespace eddy::solver
