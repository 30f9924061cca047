#pragma once
// Owned cells split into an interior, which a stencil of reach `width` can update while a halo exchange is in flight,
// and the boundary shell around it, updated after the exchange has finished:
//   halo.begin();  update(interior);  halo.finish();  for (box : shell) update(box);
// The interior keeps `width` cells away from every block face except along axes that wrap onto this rank (their
// ghosts are filled by HaloExchange::begin()); faces at physical boundaries count as late too, so boundary conditions
// may be applied after finish().
#include "grid/index_ranges.hpp"

#include <vector>

namespace eddy::grid {

/// The owned cells of a rank, split for overlapping a halo exchange of `width` layers with compute.
struct OverlapRanges {
  IndexBox interior;            ///< cells at distance >= width from every block face whose ghosts are filled late
  std::vector<IndexBox> shell;  ///< the remaining owned cells as disjoint, non-empty slabs (at most 6)
};

/// Splits the owned cells into the interior and the shell for a halo exchange of `width` layers.
OverlapRanges overlap_ranges(const Decomposition& decomp, const LocalShape& shape, int width);

}  // namespace eddy::grid
