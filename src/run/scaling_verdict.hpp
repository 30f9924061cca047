#pragma once
// A plain-language verdict on how well a multi-rank run used its ranks, from where its time went.
#include "core/types.hpp"

#include <string>

namespace eddy::run {

/// What the verdict is drawn from (shares are fractions of the wall time of the run; the verdict weighs them against
/// the run's time without output, so that a run ending in a large checkpoint does not seem to communicate less).
struct ScalingFacts {
  int ranks = 1;
  int dimensions = 2;
  Int3 local_cells{1, 1, 1};           ///< the largest block of one rank
  double halo_share = 0;               ///< velocity halo exchange (waiting for neighbours included)
  double reduction_share = 0;          ///< global reductions of the diagnostics (waiting included)
  double poisson_share = 0;            ///< the pressure solver's own work (its communication excluded)
  double poisson_halo_share = 0;       ///< the pressure solver's halo exchanges (waiting included)
  double poisson_reduction_share = 0;  ///< the pressure solver's reductions and coarse-level gather (waiting included)
  double imbalance = 0;                ///< slowest rank's local compute minus the average (the others wait that long)
  double output_share = 0;             ///< writing fields and checkpoints
  int ranks_on_node = 1;               ///< ranks on the busiest node
  int threads_per_rank = 1;            ///< host threads of each rank (OpenMP); 1 on GPU builds
  int cores_on_node = 0;               ///< logical CPUs of that node (0: unknown)
  double core_share = 1;               ///< the least CPU time of a rank over the steps, per thread and wall second
  bool on_gpus = false;                ///< ranks drive GPUs, so the host cores only launch work

  /// Every halo exchange: the velocity's and the pressure solver's.
  double all_halo_share() const { return halo_share + poisson_halo_share; }
  /// Every global reduction: the diagnostics' and the pressure solver's.
  double all_reduction_share() const { return reduction_share + poisson_reduction_share; }
  /// All communication, waiting included.
  double communication_share() const { return all_halo_share() + all_reduction_share(); }
  /// The whole pressure solve, its communication included.
  double poisson_solve_share() const { return poisson_share + poisson_halo_share + poisson_reduction_share; }
  /// The same facts with every share a fraction of the time without output (output_share 0).
  ScalingFacts without_output() const;
};

/// Share of halo exchange (velocity and pressure solve) above which the local grid counts as too small for the ranks.
inline constexpr double halo_share_too_high = 0.2;
/// Share of reductions (diagnostics and pressure solve) above which the run counts as latency-bound.
inline constexpr double reduction_share_too_high = 0.15;
/// Share of waiting for the slowest rank above which the split of the cells counts as uneven.
inline constexpr double imbalance_too_high = 0.1;
/// Share of the whole pressure solve above which the verdict points at it.
inline constexpr double poisson_share_dominant = 0.5;

/// Share of a core below which a rank counts as waiting for one (other work on the node, or more threads than cores).
inline constexpr double core_share_too_low = 0.75;

/// Cells per GPU below which a step costs about the same whatever the grid, kernel launches and host round trips
/// setting its pace rather than the memory bandwidth (the small-grid table of docs/performance.md).
inline constexpr double latency_bound_cells = 1 << 21;

/// One sentence for a GPU run with fewer cells per GPU than latency_bound_cells, `seconds_per_step` a step: its pace
/// is set by latency, and what to do about it; "" otherwise.
std::string latency_verdict(const ScalingFacts& facts, double seconds_per_step);

/// One or two sentences on the scaling of the run, naming its main cost (first of all host cores shared between more
/// threads than they hold, or with other work); "" for one rank.
std::string scaling_verdict(const ScalingFacts& facts);

}  // namespace eddy::run
