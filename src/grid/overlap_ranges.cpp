#include "grid/overlap_ranges.hpp"

#include <algorithm>

namespace eddy::grid {

OverlapRanges overlap_ranges(const Decomposition& decomp, const LocalShape& shape, int width) {
  const int g = shape.ghost;
  Int3 owned_lo, owned_hi, inner_lo, inner_hi;
  for (int a = 0; a < 3; ++a) {
    const int n = shape.cells[a];
    const int keep_away = decomp.wraps_onto_itself(a) ? 0 : width;
    owned_lo[a] = g;
    owned_hi[a] = g + n;
    inner_lo[a] = g + std::min(keep_away, n);
    inner_hi[a] = std::max(inner_lo[a], g + n - keep_away);
  }
  OverlapRanges ranges;
  ranges.interior = {inner_lo, inner_hi};
  // Slabs: x ends over the full owned y and z; y ends over the interior x; z ends over the interior x and y.
  for (int a = 0; a < 3; ++a) {
    IndexBox low, high;
    for (int b = 0; b < 3; ++b) {
      const bool inner = b < a;
      low.lo[b] = high.lo[b] = inner ? inner_lo[b] : owned_lo[b];
      low.hi[b] = high.hi[b] = inner ? inner_hi[b] : owned_hi[b];
    }
    low.hi[a] = inner_lo[a];
    high.lo[a] = inner_hi[a];
    if (!low.empty()) ranges.shell.push_back(low);
    if (!high.empty()) ranges.shell.push_back(high);
  }
  return ranges;
}

}  // namespace eddy::grid
