#pragma once
// Staggered field storage. Every field of a rank has the same shape: its owned cells plus `ghost` layers per side.
//
// Index convention (view indices include the ghost offset g):
//   cell-centred  p(i, j, k): cell centre of local cell (i - g, j - g, k - g)
//   x-face        u(i, j, k): the face on the HIGH x side of that cell (x = x_{i-g+1/2}); likewise v (y) and w (z).
// So the owned faces of a rank are i in [g, g + n), and the low physical boundary face of x is u(g - 1, ., .).
#include "core/types.hpp"
#include "grid/local_shape.hpp"

#include <string>

namespace eddy::fields {

using grid::local_shape;
using grid::LocalShape;

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
