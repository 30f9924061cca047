#pragma once
// A plain-language verdict on how well a multi-rank run used its ranks, from where its time went.
#include "core/types.hpp"

#include <string>

namespace eddy::time {

/// What the verdict is drawn from (shares are fractions of the wall time of the run).
struct ScalingFacts {
  int ranks = 1;
  int dimensions = 2;
  Int3 local_cells{1, 1, 1};   ///< the largest block of one rank
  double halo_share = 0;       ///< velocity halo exchange (waiting for neighbours included)
  double reduction_share = 0;  ///< global reductions of the diagnostics (waiting included)
  double poisson_share = 0;    ///< the pressure solve (its own halo exchanges and reductions included)
  double imbalance = 0;        ///< slowest rank's local compute minus the average (the others wait that long)
};

/// Share of halo exchange above which the local grid counts as too small for the rank count.
inline constexpr double halo_share_too_high = 0.2;
/// Share of reductions above which the run counts as latency-bound.
inline constexpr double reduction_share_too_high = 0.15;
/// Share of waiting for the slowest rank above which the split of the cells counts as uneven.
inline constexpr double imbalance_too_high = 0.1;
/// Share of the pressure solve above which the verdict points at it (its communication is inside it).
inline constexpr double poisson_share_dominant = 0.5;

/// One or two sentences on the scaling of the run, naming its main cost; "" for one rank.
std::string scaling_verdict(const ScalingFacts& facts);

}  // namespace eddy::time
