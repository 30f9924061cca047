#pragma once
// The kernel tables of `eddy bench stencil` and `eddy bench flow`: each kernel's time next to the fastest streaming
// kernel that reads and writes as many values per cell (its floor), measured in the same run.
#include "core/error.hpp"
#include "core/types.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace eddy::bench {

/// Values a kernel reads and writes per cell; a multigrid transfer reads or writes one coarse value per eight cells.
struct Mix {
  double reads, writes;
  /// Bytes a cell moves.
  double bytes() const { return sizeof(Real) * (reads + writes); }
  bool operator==(const Mix& other) const { return reads == other.reads && writes == other.writes; }
};

/// One timed kernel of a table.
struct KernelRow {
  std::string name;
  Mix mix;
  double seconds;       ///< median over the repetitions, slowest rank
  bool stream = false;  ///< a streaming kernel: a candidate floor of its mix
};

/// Throws eddy::Error naming the first row of `rows` whose mix no streaming row has (benchmark `benchmark`).
inline void require_floors(const std::vector<KernelRow>& rows, const std::string& benchmark) {
  for (const auto& row : rows) {
    const bool has_floor =
        std::any_of(rows.begin(), rows.end(), [&](const KernelRow& s) { return s.stream && s.mix == row.mix; });
    require(has_floor,
            "bench " + benchmark + ": no stream with the reads and writes of '" + row.name + "' to compare it with");
  }
}

/// Prints `rows` over `cells` cells per rank: bytes per cell, time, bandwidth and the fraction of the floor's.
inline void print_kernel_table(const std::vector<KernelRow>& rows, long long cells, int name_width) {
  const auto floor_bandwidth = [&](const Mix& mix) {
    double best = 0;
    for (const auto& row : rows) {
      if (row.stream && row.mix == mix) best = std::max(best, mix.bytes() * cells / row.seconds);
    }
    return best;
  };
  std::printf("%-*s %6s %12s %10s %10s\n", name_width, "kernel", "B/cell", "time [ms]", "GB/s", "vs floor");
  for (const auto& row : rows) {
    const double bandwidth = row.mix.bytes() * cells / row.seconds;
    std::printf("%-*s %6.0f %12.4f %10.1f %10.2f\n", name_width, row.name.c_str(), row.mix.bytes(), 1e3 * row.seconds,
                bandwidth / 1e9, bandwidth / floor_bandwidth(row.mix));
  }
}

}  // namespace eddy::bench
