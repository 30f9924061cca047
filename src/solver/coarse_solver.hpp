#pragma once
// Exact solve on the coarsest multigrid level. Each rank holds the rows of the level's dense inverse (computed once)
// for its own cells; a solve gathers the whole level's right-hand side (a few hundred values at most) through the
// run's reducer and applies those rows in one kernel. With NCCL, or on one rank, the solve is device work only, with
// no host round trip, so a whole cycle can be recorded as a CUDA graph. So the bottom of a cycle costs the same and
// gives the same answer however many ranks share the level, without an iteration or a reduction per step. The singular
// case (no Dirichlet face) solves with the mean of b removed and returns the zero-mean solution, like the Krylov
// solvers.
#include "parallel/reducer.hpp"
#include "solver/poisson_level.hpp"

#include <vector>

namespace eddy::solver {

/// The dense inverse of a bottom level held by one rank, in device memory, row-major.
using DeviceInverse = Kokkos::View<Real**, Kokkos::LayoutRight, MemSpace>;

class DenseCoarseSolver {
 public:
  /// Largest level (cells over all ranks) solved densely; the inverse of 512 unknowns takes 2 MB.
  static constexpr long long max_unknowns = 512;
  /// True when `level` is small enough for a dense inverse.
  static bool fits(const PoissonLevel& level) { return level.global_cells() <= max_unknowns; }

  /// Gathers the block layout of every rank and inverts the level's operator (collective over the reducer's ranks;
  /// the level spans them all).
  DenseCoarseSolver(const PoissonLevel& level, const parallel::Reducer& reducer);
  /// x = L^-1 b on the owned cells (ghosts of x are left to the caller).
  void solve(Field x, Field b);
  /// True when the solve only enqueues device work (one rank, or the gather through NCCL).
  bool on_device() const { return ranks_ == 1 || !reducer_->blocks_host(); }

 private:
  PoissonLevel level_;
  const parallel::Reducer* reducer_;
  int ranks_ = 1;
  DeviceInverse inverse_;     // rows: the owned cells, x fastest; columns: the gathered values
  Buffer packed_, gathered_;  // several ranks: this rank's owned b, and every rank's after the gather
};

}  // namespace eddy::solver
