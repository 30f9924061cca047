#include "solver/pair_column_choice.hpp"

#include "core/error.hpp"
#include "grid/pair_columns.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace eddy::solver {

std::string ColumnLengthChoice::describe() const {
  std::string text = "columns of " + std::to_string(planes) + " planes";
  if (!timed) return untimed_reason.empty() ? text : text + " (" + untimed_reason + ")";
  char times[96];
  std::snprintf(times, sizeof times, " (timed: %d planes %.3f ms, %d planes %.3f ms)", grid::kPairPlanes,
                1e3 * long_seconds, grid::kPairPlanes / 2, 1e3 * short_seconds);
  return text + times;
}

ColumnLengthChoice choose_column_length(const std::function<void(int planes)>& loop, int samples, double margin,
                                        DeviceClock clock) {
  require(samples >= 1 && margin >= 0 && margin < 1, "choose_column_length: needs a sample and a margin in [0, 1)");
  if (!clock) {
    clock = [] {
      ExecSpace().fence("pair_columns::choose_column_length");
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
  }
  constexpr int lengths[2] = {grid::kPairPlanes, grid::kPairPlanes / 2};
  double shortest[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (const int planes : lengths) loop(planes);
  for (int sample = 0; sample < samples; ++sample) {
    for (int l = 0; l < 2; ++l) {
      const double start = clock();
      loop(lengths[l]);
      shortest[l] = std::min(shortest[l], clock() - start);
    }
  }
  ColumnLengthChoice choice;
  choice.timed = true;
  choice.long_seconds = shortest[0];
  choice.short_seconds = shortest[1];
  choice.planes = shortest[1] < (1 - margin) * shortest[0] ? lengths[1] : lengths[0];
  return choice;
}

std::optional<ColumnLengthChoice> choose_pair_columns(Field out, Field phi, const fields::LocalShape& shape,
                                                      const StencilWeights& w) {
  if (!grid::use_cell_pairs(shape, {out, phi})) return std::nullopt;
  ColumnLengthChoice kept;
  kept.planes = grid::longest_column();
  const auto& n = shape.cells;
  const bool fills_device =
      grid::column_planes(n[0] / 2, n[1], n[2], grid::resident_threads(), grid::kPairPlanes) == grid::kPairPlanes;
  if (std::getenv("EDDY_PAIR_PLANES") != nullptr) {
    kept.untimed_reason = "set by EDDY_PAIR_PLANES";
    return kept;
  }
  if (w.z == 0 || !fills_device) {
    kept.untimed_reason = w.z == 0 ? "2D: a column is one plane" : "the grid is too small for whole columns";
    return kept;
  }
  const ColumnLengthChoice choice = choose_column_length([&](int planes) {
    grid::set_longest_column(planes);
    laplacian_by_pairs(out, phi, Field(), shape, w);
  });
  grid::set_longest_column(choice.planes);
  return choice;
}

}  // namespace eddy::solver
