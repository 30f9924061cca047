#pragma once
// Exact solve on the coarsest multigrid level. Every rank gathers the whole level's right-hand side (one
// MPI_Allgatherv of a few hundred values at most; a host copy of the tiny level on GPUs) and applies the rows of a
// dense inverse it computed once, for its own cells. A level on one rank is solved by one kernel on the device, with
// no host round trip (so a whole cycle can be recorded as a CUDA graph). So the bottom of a cycle costs the same and
// gives the same answer however many ranks share the level, without an iteration or a reduction per step. The singular
// case (no Dirichlet face) solves with the mean of b removed and returns the zero-mean solution, like the Krylov
// solvers.
#include "parallel/context.hpp"
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

  /// Gathers the block layout of every rank and inverts the level's operator (collective over the level's ranks).
  DenseCoarseSolver(const PoissonLevel& level, parallel::Context& context);
  /// x = L^-1 b on the owned cells (ghosts of x are left to the caller).
  void solve(Field x, Field b);
  /// True when the solve only enqueues device work (the level lies on one rank).
  bool on_device() const { return ranks_ == 1; }

 private:
  PoissonLevel level_;
  MPI_Comm comm_;
  int ranks_ = 1;
  std::vector<int> counts_, displacements_;  // gathered values per rank and where they start
  std::vector<int> gathered_cell_;           // global cell index of each gathered value
  std::vector<int> own_cell_;                // global cell index of each owned cell, x fastest
  std::vector<Real> inverse_;                // N x N, row-major
  std::vector<Real> local_, gathered_, global_b_;
  Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::HostSpace> host_x_, host_b_;
  DeviceInverse device_inverse_;  // one rank: the inverse on the device
};

}  // namespace eddy::solver
