#pragma once
// Named index ranges over a rank's fields, so kernels never spell out ghost offsets by hand.
#include "grid/local_shape.hpp"

namespace eddy::grid {

using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                      Kokkos::IndexType<int>, LightWeight>;

/// Tile for the 3D range loops (the kernels that are not hot: boundaries, initial fields, output): long in x for
/// coalesced loads, short in y and z on GPUs; Kokkos's own choice on CPUs.
inline Kokkos::Array<int64_t, 3> stencil_tile() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return {128, 2, 1};
#else
  return {0, 0, 0};
#endif
}

/// Owned cells (view indices), optionally widened by `grow` layers into the ghosts.
inline Policy3 owned_cells(const LocalShape& s, int grow = 0) {
  const int g = s.ghost;
  const Kokkos::Array<int64_t, 3> lo{g - grow, g - grow, g - grow};
  const Kokkos::Array<int64_t, 3> hi{g + s.cells[0] + grow, g + s.cells[1] + grow, g + s.cells[2] + grow};
  return Policy3(lo, hi, stencil_tile());
}

/// All allocated points, ghosts included.
inline Policy3 all_points(const LocalShape& s) {
  return Policy3({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}, stencil_tile());
}

/// An explicit box of view indices [lo, hi).
inline Policy3 box(Int3 lo, Int3 hi) { return Policy3({lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, stencil_tile()); }

/// A box of view indices [lo, hi) per axis.
struct IndexBox {
  Int3 lo{0, 0, 0};
  Int3 hi{0, 0, 0};

  /// True when the box holds no point.
  bool empty() const { return lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]; }
  /// Points in the box (0 when empty).
  long long count() const {
    return empty() ? 0 : static_cast<long long>(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  }
};

}  // namespace eddy::grid
