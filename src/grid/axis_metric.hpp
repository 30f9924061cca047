#pragma once
// The spacings of a rank's block on a stretched grid, as the kernels read them: per axis and view index.
#include "grid/decomposition.hpp"
#include "grid/local_shape.hpp"

namespace eddy::grid {

/// One axis of a block along its view indices (ghosts and row padding included): the width of cell i and the
/// distance from its centre to the next one's (across face i), both inverted, and the width.
struct AxisMetric {
  Kokkos::View<Real*, MemSpace> inv_width, inv_gap, width;
};

/// Second derivative along an axis of a field at cell centres along it: (f' at face i - f' at face i-1) / width.
KOKKOS_INLINE_FUNCTION Real second_difference_at_centre(Real low, Real centre, Real high, const AxisMetric& m, int i) {
  return ((high - centre) * m.inv_gap(i) - (centre - low) * m.inv_gap(i - 1)) * m.inv_width(i);
}

/// Second derivative along an axis of a field at faces along it: (f' at centre i+1 - f' at centre i) / gap.
KOKKOS_INLINE_FUNCTION Real second_difference_at_face(Real low, Real centre, Real high, const AxisMetric& m, int i) {
  return ((high - centre) * m.inv_width(i + 1) - (centre - low) * m.inv_width(i)) * m.inv_gap(i);
}

/// The three axes' spacings of a block (uniform axes hold their one spacing everywhere).
struct GridMetric {
  AxisMetric x, y, z;

  /// The spacings along axis a (0, 1, 2).
  KOKKOS_INLINE_FUNCTION const AxisMetric& along(int a) const { return a == 0 ? x : (a == 1 ? y : z); }
  /// The volume of cell (i, j, k).
  KOKKOS_INLINE_FUNCTION Real volume(int i, int j, int k) const { return x.width(i) * y.width(j) * z.width(k); }
};

/// The spacings of one axis of a block that starts at global cell `offset` and spans `extent` view points, the first
/// `ghost` of them ghosts: ghost cells mirror the cells inside a physical boundary and wrap a periodic axis.
AxisMetric make_axis_metric(const GlobalGrid& global, int axis, int offset, int extent, int ghost);

/// The spacings of a rank's block of the given shape.
GridMetric make_grid_metric(const Decomposition& decomp, const LocalShape& shape);

}  // namespace eddy::grid
