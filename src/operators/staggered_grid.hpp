#pragma once
// What every staggered-grid kernel needs to know about a rank's block: shape, spacing, dimension, and which of its
// sides are physical boundaries. Also the named face ranges of the momentum update and the pressure correction.
#include "fields/field.hpp"
#include "grid/axis_metric.hpp"
#include "grid/decomposition.hpp"
#include "grid/index_ranges.hpp"
#include "grid/pair_columns.hpp"

#include <utility>

namespace eddy::operators {

/// Inverse spacings and their squares, copied by value into kernels.
struct InverseSpacing {
  Real x = 1, y = 1, z = 1;
  Real x2 = 1, y2 = 1, z2 = 1;
};

/// A rank's block as the operators see it.
struct StaggeredGrid {
  fields::LocalShape shape;
  Real3 spacing{1, 1, 1};   ///< the mean cell size per axis (the cell size of a uniform axis)
  Real3 smallest{1, 1, 1};  ///< the smallest cell width per axis over the whole grid (the explicit-diffusion limit)
  InverseSpacing inv;
  bool three_d = false;
  std::array<std::array<bool, 2>, 3> physical{{{false, false}, {false, false}, {false, false}}};
  grid::PairReductionScratch reduction_scratch;  ///< for the reductions over pair columns (GPUs)
  /// True on a stretched grid: the kernels read `metric` (operators/stretched_stencils.hpp) instead of `inv`.
  bool stretched = false;
  grid::GridMetric metric;  ///< the spacings of a stretched grid (unallocated on a uniform one)

  /// Cell volume; in 2D the cell's area, so that integrals (kinetic energy, forces) are per unit depth and do not
  /// depend on the width of the one z cell.
  Real cell_volume() const { return spacing[0] * spacing[1] * (three_d ? spacing[2] : 1); }
  /// Velocity components carried by the kernels: 3 in 3D, 2 in 2D (w stays zero).
  int components() const { return three_d ? 3 : 2; }

  /// Faces of component `axis` owned by this rank, with the low and high physical boundary faces included on request
  /// (the high boundary face is an owned index, the low one a ghost index; both are set by boundary conditions): the
  /// box [lo, hi) of view indices.
  std::pair<Int3, Int3> face_box(int axis, bool low_boundary, bool high_boundary) const {
    Int3 lo{shape.ghost, shape.ghost, shape.ghost};
    Int3 hi{shape.ghost + shape.cells[0], shape.ghost + shape.cells[1], shape.ghost + shape.cells[2]};
    if (low_boundary && physical[axis][0]) lo[axis] -= 1;
    if (!high_boundary && physical[axis][1]) hi[axis] -= 1;
    return {lo, hi};
  }
  /// face_box as a 3D policy.
  grid::Policy3 faces(int axis, bool low_boundary, bool high_boundary) const {
    const auto [lo, hi] = face_box(axis, low_boundary, high_boundary);
    return grid::box(lo, hi);
  }
  /// Faces of component `axis` advanced by the momentum equation (no physical boundary face).
  grid::Policy3 momentum_faces(int axis) const { return faces(axis, false, false); }
  /// The box of momentum_faces.
  std::pair<Int3, Int3> momentum_box(int axis) const { return face_box(axis, false, false); }
};

/// The staggered view of a decomposed block with the given field shape.
inline StaggeredGrid make_staggered_grid(const grid::Decomposition& decomp, const fields::LocalShape& shape) {
  StaggeredGrid g;
  g.shape = shape;
  for (int a = 0; a < 3; ++a) {
    g.spacing[a] = decomp.global.spacing(a);
    g.smallest[a] = decomp.global.smallest_width(a);
    for (int side = 0; side < 2; ++side) g.physical[a][side] = decomp.on_boundary(a, side);
  }
  g.inv.x = 1 / g.spacing[0];
  g.inv.y = 1 / g.spacing[1];
  g.inv.z = 1 / g.spacing[2];
  g.inv.x2 = g.inv.x * g.inv.x;
  g.inv.y2 = g.inv.y * g.inv.y;
  g.inv.z2 = g.inv.z * g.inv.z;
  g.three_d = decomp.global.dim == 3;
  g.stretched = decomp.global.stretched();
  if (g.stretched) g.metric = grid::make_grid_metric(decomp, shape);
  g.reduction_scratch = grid::make_pair_reduction_scratch({shape.extent(0), shape.extent(1), shape.extent(2)});
  return g;
}

}  // namespace eddy::operators
