#pragma once
// The global Cartesian grid: cell counts, physical extent and spacing, periodicity per axis, and the face coordinates
// of stretched axes.
#include "core/types.hpp"

#include <vector>

namespace eddy::grid {

/// The global grid. A 2D grid is stored as 3D with one cell in z, periodic in z, so every stencil is 3D. An axis is
/// uniform unless `faces` holds its cells + 1 face coordinates.
struct GlobalGrid {
  int dim = 2;
  Int3 cells{1, 1, 1};
  Real3 length{1, 1, 1};
  Real3 origin{0, 0, 0};
  std::array<bool, 3> periodic{false, false, true};
  std::array<std::vector<double>, 3> faces{};  ///< face coordinates of stretched axes (empty: uniform)

  /// Mean cell size along an axis (the cell size of a uniform axis).
  Real spacing(int axis) const { return length[axis] / cells[axis]; }
  /// Total number of cells.
  long long total_cells() const { return static_cast<long long>(cells[0]) * cells[1] * cells[2]; }
  /// True when the cells of `axis` differ in size.
  bool stretched(int axis) const { return !faces[axis].empty(); }
  /// True when any axis is stretched.
  bool stretched() const { return stretched(0) || stretched(1) || stretched(2); }
  /// Coordinate of face n (0 ... cells) of `axis`, the low end of cell n.
  double face(int axis, int n) const {
    return stretched(axis) ? faces[axis][n] : origin[axis] + n * double(length[axis]) / cells[axis];
  }
  /// Width of cell n of `axis`; past the ends, the wrapped cell (periodic) or the mirrored one (a ghost cell).
  double width(int axis, int n) const {
    const int count = cells[axis];
    if (n < 0) n = periodic[axis] ? n + count : -1 - n;
    if (n >= count) n = periodic[axis] ? n - count : 2 * count - 1 - n;
    return stretched(axis) ? faces[axis][n + 1] - faces[axis][n] : double(length[axis]) / count;
  }
  /// Coordinate of the centre of cell n of `axis` (0 ... cells - 1).
  double centre(int axis, int n) const {
    return stretched(axis) ? 0.5 * (face(axis, n) + face(axis, n + 1))
                           : origin[axis] + (n + 0.5) * double(length[axis]) / cells[axis];
  }
  /// Coordinate along `axis` of the centre (or, with `face`, the high face) of cell n; past the ends (ghost cells)
  /// the end cells' widths continue.
  double position(int axis, int n, bool face) const {
    const int count = cells[axis];
    if (!stretched(axis)) return origin[axis] + (n + (face ? 1.0 : 0.5)) * double(length[axis]) / count;
    const double at = n + (face ? 1.0 : 0.5);  // in cells from the low end
    if (at < 0) return faces[axis][0] + at * width(axis, 0);
    if (at > count) return faces[axis][count] + (at - count) * width(axis, count - 1);
    return face ? faces[axis][n + 1] : centre(axis, n);
  }
  /// The smallest cell width along `axis`.
  double smallest_width(int axis) const;
  /// The largest cell width along `axis`.
  double largest_width(int axis) const;
  /// The cell holding coordinate x along `axis` (clamped to the grid).
  int cell_at(int axis, double x) const;
};

}  // namespace eddy::grid
