#pragma once
// Staggered field storage. Every field of a rank has the same shape: its owned cells plus `ghost` layers per side.
//
// Index convention (view indices include the ghost offset g):
//   cell-centred  p(i, j, k): cell centre of local cell (i - g, j - g, k - g)
//   x-face        u(i, j, k): the face on the HIGH x side of that cell (x = x_{i-g+1/2}); likewise v (y) and w (z).
// So the owned faces of a rank are i in [g, g + n), and the low physical boundary face of x is u(g - 1, ., .).
#include "core/row_padding.hpp"
#include "core/types.hpp"
#include "grid/decomposition.hpp"

#include <string>

namespace eddy::fields {

/// Shape of a rank's fields: owned cells per axis and ghost width (z has ghosts also in 2D, where nz = 1), and the
/// points past the high x ghosts that pad each row to whole cache lines (core/row_padding.hpp). Padding points are
/// never owned, ghosts or read by a stencil of an owned point; loops over the whole view visit them.
struct LocalShape {
  Int3 cells{1, 1, 1};
  int ghost = 1;
  int row_padding = 0;

  /// Allocated extent along an axis: ghosts included, and the padding along x.
  int extent(int axis) const { return cells[axis] + 2 * ghost + (axis == 0 ? row_padding : 0); }
  /// Allocated points, ghosts included.
  long long allocated_points() const { return static_cast<long long>(extent(0)) * extent(1) * extent(2); }
};

/// The local shape of a decomposition with the given ghost width, rows padded to whole cache lines.
inline LocalShape local_shape(const grid::Decomposition& decomp, int ghost) {
  const int row = decomp.local_cells[0] + 2 * ghost;
  return {decomp.local_cells, ghost, padded_row_values(row) - row};
}

/// Allocates a zero-initialised field of the given shape.
inline Field make_field(const std::string& label, const LocalShape& shape) {
  return Field(label, shape.extent(0), shape.extent(1), shape.extent(2));
}

/// A cell-centred field and the deck name it goes by (a transported scalar: temperature, a dye).
struct NamedField {
  std::string name;
  Field field;
};

/// The velocity components on the faces and the pressure at the centres.
struct FlowState {
  Field u, v, w, p;
  LocalShape shape;

  /// Allocates every field of the state for the shape.
  static FlowState allocate(const LocalShape& shape) {
    return {make_field("u", shape), make_field("v", shape), make_field("w", shape), make_field("p", shape), shape};
  }
};

}  // namespace eddy::fields
