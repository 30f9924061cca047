#include "grid/overlap_ranges.hpp"

#include <algorithm>

namespace eddy::grid {
namespace {

// The points [lo, hi) split around the interior [inner_lo, inner_hi) into slabs: x ends over the full y and z; y ends
// over the interior x; z ends over the interior x and y.
OverlapRanges split(const Int3& lo, const Int3& hi, const Int3& inner_lo, const Int3& inner_hi) {
  OverlapRanges ranges;
  ranges.interior = {inner_lo, inner_hi};
  for (int a = 0; a < 3; ++a) {
    IndexBox low, high;
    for (int b = 0; b < 3; ++b) {
      const bool inner = b < a;
      low.lo[b] = high.lo[b] = inner ? inner_lo[b] : lo[b];
      low.hi[b] = high.hi[b] = inner ? inner_hi[b] : hi[b];
    }
    low.hi[a] = inner_lo[a];
    high.lo[a] = inner_hi[a];
    if (!low.empty()) ranges.shell.push_back(low);
    if (!high.empty()) ranges.shell.push_back(high);
  }
  return ranges;
}

// The interior along axis `a`: `width` cells inside the owned block where its ghosts come late, else [lo, hi).
void interior_along(const Decomposition& decomp, const fields::LocalShape& shape, int width, int a, int lo, int hi,
                    int& inner_lo, int& inner_hi) {
  if (decomp.wraps_onto_itself(a)) {
    inner_lo = lo;
    inner_hi = hi;
    return;
  }
  const int g = shape.ghost, n = shape.cells[a];
  inner_lo = g + std::min(width, n);
  inner_hi = std::max(inner_lo, g + n - width);
}

}  // namespace

OverlapRanges overlap_ranges(const Decomposition& decomp, const fields::LocalShape& shape, int width) {
  const int g = shape.ghost;
  Int3 lo, hi, inner_lo, inner_hi;
  for (int a = 0; a < 3; ++a) {
    lo[a] = g;
    hi[a] = g + shape.cells[a];
    interior_along(decomp, shape, width, a, lo[a], hi[a], inner_lo[a], inner_hi[a]);
  }
  return split(lo, hi, inner_lo, inner_hi);
}

OverlapRanges view_overlap_ranges(const Decomposition& decomp, const fields::LocalShape& shape, Int3 extent,
                                  int width) {
  Int3 lo{0, 0, 0}, inner_lo, inner_hi;
  for (int a = 0; a < 3; ++a) interior_along(decomp, shape, width, a, 0, extent[a], inner_lo[a], inner_hi[a]);
  return split(lo, extent, inner_lo, inner_hi);
}

}  // namespace eddy::grid
