#pragma once
// Points split into an interior, which a stencil of reach `width` can update while a halo exchange is in flight,
// and the boundary shell around it, updated after the exchange has finished:
//   halo.begin();  update(interior);  halo.finish();  for (box : shell) update(box);
// The interior keeps `width` cells away from every block face except along axes that wrap onto this rank (their
// ghosts are filled by HaloExchange::begin()); faces at physical boundaries count as late too, so boundary conditions
// may be applied after finish(). overlap_ranges() splits the owned cells (a kernel that writes owned cells only);
// view_overlap_ranges() splits every point of a view, ghosts included (a kernel that writes ghosts too, such as the
// fused velocity stage that copies them): along a late axis the ghosts belong to the shell.
#include "grid/index_ranges.hpp"

#include <vector>

namespace eddy::grid {

/// Points of a rank, split for overlapping a halo exchange of `width` layers with compute.
struct OverlapRanges {
  IndexBox interior;            ///< points at distance >= width from every block face whose ghosts are filled late
  std::vector<IndexBox> shell;  ///< the remaining points as disjoint, non-empty slabs (at most 6)
};

/// Splits the owned cells into the interior and the shell for a halo exchange of `width` layers.
OverlapRanges overlap_ranges(const Decomposition& decomp, const fields::LocalShape& shape, int width);

/// Splits the view points [0, extent) (ghosts included) into the interior and the shell for a halo exchange of
/// `width` layers; along axes that wrap onto this rank the interior spans the whole extent.
OverlapRanges view_overlap_ranges(const Decomposition& decomp, const fields::LocalShape& shape, Int3 extent, int width);

}  // namespace eddy::grid
