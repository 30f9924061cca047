#pragma once
// The coarse end of a multigrid V-cycle as one kernel: one team of threads sweeps every level from a small one down to
// the bottom and back, each level held in the team's scratch memory, with a barrier between passes. On a GPU each of
// those levels would cost half a dozen kernel launches of a few microseconds that do almost no work; together they
// cost about one. The arithmetic is the level-by-level cycle's (solver/multigrid.hpp): red-black colour passes,
// restriction of the residual, linear prolongation and the dense bottom solve, whose sums run in another order. It
// takes levels that lie whole on one rank, with ghost width one, whose colour passes read no ghost (physical faces, or
// periodic wraps over even counts), smoothed by red-black Gauss-Seidel in V-cycles, and that fit the scratch memory.
#include "config/deck.hpp"
#include "solver/coarse_solver.hpp"
#include "solver/colour_stencil.hpp"

#include <vector>

namespace eddy::solver {

class TeamLevels {
 public:
  /// Most levels one team sweeps.
  static constexpr int max_levels = 8;
  /// The first of `levels` (fine to coarse, the last the dense bottom) from which a team can sweep all the rest, at
  /// least index 1 (the top level keeps its own kernels); levels.size() where none qualifies.
  static int first_level(const std::vector<PoissonLevel>& levels);

  /// The team cycle of `levels` (the first the entry level, each coarsened by the next entry of `factors`, the last
  /// solved by `bottom`) with the smoothing of `config`.
  TeamLevels(const std::vector<PoissonLevel>& levels, const std::vector<Int3>& factors, const DenseCoarseSolver& bottom,
             const config::PoissonConfig& config);
  /// One V-cycle for L(x) = b on the entry level: from x = 0 where `from_zero`, else from x with valid ghosts; the
  /// ghosts of x are valid on exit.
  void cycle(Field x, Field b, bool from_zero) const;

  /// The level of the sweeps, as the kernel sees it: its stencil, extents with ghosts and place in scratch memory.
  struct Level {
    ColourStencil stencil;
    Kokkos::Array<Real, 6> ghost_sign;  // per face: +1 neumann, -1 dirichlet, 0 a periodic wrap
    Kokkos::Array<int, 3> extent;       // points per axis with ghosts (1 along z in 2D: the plane alone)
    Kokkos::Array<int, 3> factor;       // coarsening to the next level
    int x = 0, b = 0;                   // offsets of the iterate and right-hand side in scratch (in Reals)
  };

 private:
  Kokkos::View<Level*, MemSpace> levels_;
  int count_ = 0;
  int scratch_reals_ = 0;
  int pre_smooth_ = 0, post_smooth_ = 0;
  bool three_d_ = true;
  Real mean_weight_ = 0;  // 1 / cells of the bottom where the problem is singular (its mean removed), else 0
  DeviceInverse inverse_;
  mutable int team_size_ = 0;  // threads of the team, the most the kernel allows (found at the first cycle)
};

}  // namespace eddy::solver
