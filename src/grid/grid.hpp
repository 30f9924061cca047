#pragma once
// The global Cartesian grid: cell counts, physical extent and spacing, periodicity per axis.
#include "core/types.hpp"

namespace eddy::grid {

/// The global uniform grid. A 2D grid is stored as 3D with one cell in z, periodic in z, so every stencil is 3D.
struct GlobalGrid {
  int dim = 2;
  Int3 cells{1, 1, 1};
  Real3 length{1, 1, 1};
  Real3 origin{0, 0, 0};
  std::array<bool, 3> periodic{false, false, true};

  /// Cell size along an axis.
  Real spacing(int axis) const { return length[axis] / cells[axis]; }
  /// Total number of cells.
  long long total_cells() const { return static_cast<long long>(cells[0]) * cells[1] * cells[2]; }
};

}  // namespace eddy::grid
