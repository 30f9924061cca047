#pragma once
// Loops over boxes of view indices with a chosen parallel policy. The z-marching form gives each GPU thread a short
// column of cells along z, so the z-neighbours of one cell are the centre and next cell of the previous one (L1 hits)
// and the index arithmetic is shared; `eddy bench stencil` compares it with the plain 3D tiling.
#include "grid/index_ranges.hpp"

namespace eddy::grid {

using Policy2 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                      Kokkos::IndexType<int>, LightWeight>;

/// Runs body(i, j, k) over the box [lo, hi), each thread taking `chunk` consecutive k for one (i, j).
template <class Body>
void for_each_cell_z_march(const char* label, Int3 lo, Int3 hi, int chunk, const Body& body) {
  const int k0 = lo[2], k1 = hi[2];
  const int chunks = (k1 - k0 + chunk - 1) / chunk;
  Kokkos::parallel_for(
      label, Policy3({lo[0], lo[1], 0}, {hi[0], hi[1], chunks}, {64, 4, 1}), KOKKOS_LAMBDA(int i, int j, int c) {
        const int first = k0 + c * chunk;
        const int last = first + chunk < k1 ? first + chunk : k1;
        for (int k = first; k < last; ++k) body(i, j, k);
      });
}

}  // namespace eddy::grid
