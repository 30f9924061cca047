#pragma once
// The shape of a rank's fields: its owned cells, the ghost layers around them and the padding of each row.
#include "core/row_padding.hpp"
#include "core/types.hpp"
#include "grid/decomposition.hpp"

namespace eddy::grid {

/// Shape of a rank's fields: owned cells per axis and ghost width (z has ghosts also in 2D, where nz = 1), and the
/// points past the high x ghosts that pad each row to whole cache lines (core/row_padding.hpp). Padding points are
/// never owned, ghosts or read by a stencil of an owned point; loops over the whole view visit them.
struct LocalShape {
  Int3 cells{1, 1, 1};
  int ghost = 1;
  int row_padding = 0;
  /// The longest column of cell pairs a GPU thread marches over this block (tuning.pair_planes; grid/pair_columns.hpp).
  int pair_planes = 8;

  /// Allocated extent along an axis: ghosts included, and the padding along x.
  int extent(int axis) const { return cells[axis] + 2 * ghost + (axis == 0 ? row_padding : 0); }
};

/// The local shape of a decomposition with the given ghost width, rows padded to whole cache lines, its pair loops
/// marching columns of up to `pair_planes` planes.
inline LocalShape local_shape(const Decomposition& decomp, int ghost, int pair_planes = 8) {
  const int row = decomp.local_cells[0] + 2 * ghost;
  return {decomp.local_cells, ghost, padded_row_values(row) - row, pair_planes};
}

}  // namespace eddy::grid
