#pragma once
// Conjugate gradients on one level, optionally preconditioned (then in the flexible Polak-Ribiere form, which
// tolerates a multigrid cycle whose restriction is not exactly the transpose of its prolongation). Two global
// reductions per iteration (p.Ap, then r.z fused with |r|^2), both left on the device; the host reads |r| only
// every `check_every` iterations. The singular case (no Dirichlet face) solves with the mean of b removed and
// returns a zero-mean solution.
#include "solver/poisson_level.hpp"
#include "solver/poisson_solver.hpp"

#include <limits>

namespace eddy::solver {

/// z = M^-1 r for a preconditioner M (one multigrid cycle).
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  /// Overwrites z (ghosts included) with the preconditioned residual.
  virtual void apply(Field z, Field r) = 0;
};

/// The smallest relative tolerance a solve is held to (1.2e-5 in single precision, 2.2e-14 in double).
// Below it the residual an iteration computes in Real is round-off, and CG iterating on past that can lose the
// solution.
inline constexpr double round_off_rtol = 100 * std::numeric_limits<Real>::epsilon();

/// When a Krylov or stationary iteration stops.
struct StopCriteria {
  double rtol = 1e-8;
  double atol = 0;
  int max_iterations = 200;
  int check_every = 1;
};

class ConjugateGradient {
 public:
  /// Work fields for `level`; `preconditioned` allocates the extra field z.
  ConjugateGradient(const PoissonLevel& level, parallel::Context& context, const parallel::Reducer& reducer,
                    parallel::Transport halo_transport, bool preconditioned);
  /// Solves L(x) = b starting from x; returns with the ghosts of x valid.
  PoissonStats solve(Field x, Field b, const StopCriteria& stop, const SolveRequest& request = {},
                     Preconditioner* preconditioner = nullptr);
  /// Fills the ghosts of a field of this level.
  GhostFiller& ghosts() { return ghosts_; }

 private:
  PoissonLevel level_;
  const parallel::Reducer* reducer_;
  GhostFiller ghosts_;
  Field r_, p_, q_, z_;
  Buffer pq_, sums_[2];
};

}  // namespace eddy::solver
