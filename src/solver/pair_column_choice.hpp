#pragma once
// The column length of the pair loops (grid/pair_columns.hpp), chosen on the GPU that runs them. Columns of 8 planes
// ran the Laplacian apply and the residual as fast as 4 on an H200, and the transfers 2-5% faster; columns of 4 ran
// the apply 9% and the residual 6% faster on an H100 (tests/perf/RESULTS.md). So a run times the Laplacian apply of
// its finest grid at both lengths before its first step and takes the shorter columns only where they win by a clear
// margin. Every loop gives the same values at either length; the reductions and the restriction keep
// grid::configured_column() whatever is chosen, so their sums add in the same order.
#include "solver/laplacian.hpp"

#include <functional>
#include <optional>
#include <string>

namespace eddy::solver {

/// What choose_column_length timed and chose.
struct ColumnLengthChoice {
  int planes = 0;                              ///< the length the pair loops take
  bool timed = false;                          ///< whether the two lengths were timed
  double long_seconds = 0, short_seconds = 0;  ///< the loop's shortest time at kPairPlanes and at kPairPlanes / 2
  std::string untimed_reason;                  ///< why nothing was timed, such as "set by EDDY_PAIR_PLANES"
  /// The choice in words for logs, such as "columns of 4 planes (timed: 8 planes 0.867 ms, 4 planes 0.785 ms)" or
  /// "columns of 8 planes (set by EDDY_PAIR_PLANES)".
  std::string describe() const;
};

/// How much faster the shorter columns must run to be chosen: 2%, while they won by 9-10% on an H100 and lost by
/// 0.5-1.2% on an H200 (tests/perf/RESULTS.md).
inline constexpr double kShorterColumnMargin = 0.02;

/// Seconds on a clock that has waited for the device.
using DeviceClock = std::function<double()>;

/// Runs loop(planes) at grid::kPairPlanes and half that in turn, once each untimed, then `samples` times each timed
/// (the default clock fences), and takes the shorter columns only where their shortest time is below (1 - margin)
/// times the longer columns'.
ColumnLengthChoice choose_column_length(const std::function<void(int planes)>& loop, int samples = 3,
                                        double margin = kShorterColumnMargin, DeviceClock clock = {});

/// Where the Laplacian of `phi` runs by pairs (GPU builds, grid::use_cell_pairs): in 3D, with EDDY_PAIR_PLANES unset
/// and columns of kPairPlanes filling the device, chooses by timing laplacian_by_pairs(out, phi) and sets
/// grid::set_longest_column to the choice; else keeps grid::longest_column(), untimed. Nothing where pairs do not run.
std::optional<ColumnLengthChoice> choose_pair_columns(Field out, Field phi, const fields::LocalShape& shape,
                                                      const StencilWeights& w);

}  // namespace eddy::solver
