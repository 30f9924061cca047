#pragma once
// The first ghost layer of a rank's block where it mirrors the rank's own owned points: along periodic axes that are
// not split between ranks (grid::Decomposition::wraps_onto_itself). A kernel that writes the owned points of a field
// can write their images too, so that those ghosts are valid without a halo exchange. On one GPU the exchange touches
// one 32-byte sector per point of each x face; the images of a row's two ends land in sectors the kernel fills anyway.
//
// A point is an image when it lies one layer outside the owned block along at least one wrapping axis and inside it
// along every other axis; the owned point it mirrors, and only that one, writes it (edges and corners included).
// Ghosts beyond a physical boundary are not images: boundary conditions fill them, as after an exchange.
#include "core/types.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

namespace eddy::parallel {

struct PeriodicImages {
  bool wraps[3] = {false, false, false};
  int first[3] = {0, 0, 0}, last[3] = {0, 0, 0};  // view indices of the first and last owned point per axis
  int period[3] = {0, 0, 0};                      // offset from a point to its image one period up, per axis

  /// True when no axis wraps onto the block: a kernel has no image to write.
  bool empty() const { return !wraps[0] && !wraps[1] && !wraps[2]; }

  /// True when view point (i, j, k) is an image, which the owned point it mirrors writes.
  KOKKOS_INLINE_FUNCTION bool is_image(int i, int j, int k) const {
    const int at[3] = {i, j, k};
    bool mirrored = false;
    for (int a = 0; a < 3; ++a) {
      if (at[a] >= first[a] && at[a] <= last[a]) continue;
      if (!wraps[a] || at[a] < first[a] - 1 || at[a] > last[a] + 1) return false;
      mirrored = true;
    }
    return mirrored;
  }

  /// True when view point (i, j, k) is owned.
  KOKKOS_INLINE_FUNCTION bool owned(int i, int j, int k) const {
    return i >= first[0] && i <= last[0] && j >= first[1] && j <= last[1] && k >= first[2] && k <= last[2];
  }

  /// Calls store(d) once for each image of view point (i, j, k), d being the image's offset from the point; a point
  /// that is not owned has none.
  template <class Store>
  KOKKOS_INLINE_FUNCTION void for_each_image(int i, int j, int k, const Store& store) const {
    // Along x and y a point has at most one image (periodic_images() requires two cells there); along z a single cell
    // (2D) has one on each side.
    const int dx = shift(0, i), dy = shift(1, j);
    const int dz_up = wraps[2] && k == first[2] ? period[2] : 0, dz_down = wraps[2] && k == last[2] ? -period[2] : 0;
    if ((dx | dy | dz_up | dz_down) == 0 || !owned(i, j, k)) return;
    // The images in the z plane at offset dz from the point (the point itself left out).
    const auto in_plane = [&](int dz) {
      if (dz != 0) store(dz);
      if (dx != 0) store(dx + dz);
      if (dy != 0) store(dy + dz);
      if (dx != 0 && dy != 0) store(dx + dy + dz);
    };
    in_plane(0);
    if (dz_up != 0) in_plane(dz_up);
    if (dz_down != 0) in_plane(dz_down);
  }

 private:
  // The offset to the image of index `at` along x or y: one period up from the first owned point, down from the last.
  KOKKOS_INLINE_FUNCTION int shift(int axis, int at) const {
    if (!wraps[axis]) return 0;
    return at == first[axis] ? period[axis] : at == last[axis] ? -period[axis] : 0;
  }
};

/// The images of a field laid out like `layout` on `decomp`'s block: empty where no axis wraps onto the block, or an
/// axis other than z that wraps owns a single cell (the halo exchange fills those ghosts).
inline PeriodicImages periodic_images(const grid::Decomposition& decomp, const fields::LocalShape& shape,
                                      const Field& layout) {
  PeriodicImages images;
  for (int a = 0; a < 3; ++a) {
    if (a < 2 && decomp.wraps_onto_itself(a) && shape.cells[a] < 2) return {};
    images.wraps[a] = decomp.wraps_onto_itself(a);
    images.first[a] = shape.ghost;
    images.last[a] = shape.ghost + shape.cells[a] - 1;
    images.period[a] = shape.cells[a] * static_cast<int>(layout.stride(a));
  }
  return images;
}

}  // namespace eddy::parallel
