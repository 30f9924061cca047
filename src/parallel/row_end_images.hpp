#pragma once
// The x ghosts of a field that mirror the other end of their own row: x periodic and not split between ranks, one
// layer. Kernels that write the owned rows can write these images too: the velocity stage stores each row's ends
// twice, and the pressure-gradient correction, whose inputs' ghosts are valid, corrects the ghost faces as it does the
// faces they mirror. The halo exchange then fills the other ghosts by whole rows
// (HaloExchange::exchange_after_row_ends). Only the images on owned rows are the exchange's; those on rows beyond a
// physical boundary are the boundary conditions' to set. On GPUs the exchange of an x face touches one 32-byte
// sector per point; a row's images land in the sectors its own ends fill anyway.
#include "core/types.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

namespace eddy::parallel {

struct RowEndImages {
  bool wraps = false;
  int first = 0, last = 0;  // x view indices of the first and last owned point
  int period = 0;           // owned points per row
  // The owned block [lo, hi) in view indices, in plain arrays so that kernels may read them.
  int owned_lo[3] = {0, 0, 0}, owned_hi[3] = {0, 0, 0};

  /// True when no image is to be written.
  bool empty() const { return !wraps; }
  /// True when the row at view indices (j, k) is owned: the exchange fills its x ghosts from its ends.
  KOKKOS_INLINE_FUNCTION bool owned_row(int j, int k) const {
    return j >= owned_lo[1] && j < owned_hi[1] && k >= owned_lo[2] && k < owned_hi[2];
  }
  /// True when x view index i is a ghost that the other end of its row writes.
  KOKKOS_INLINE_FUNCTION bool is_image(int i) const { return wraps && (i == first - 1 || i == last + 1); }
  /// The offset from x view index i to its image along the row; 0 where it has none.
  KOKKOS_INLINE_FUNCTION int image_offset(int i) const {
    if (!wraps) return 0;
    return i == first ? period : i == last ? -period : 0;
  }
};

/// The row-end images of fields of `shape` on `decomp`'s block; empty unless x wraps onto the block with two cells or
/// more.
inline RowEndImages row_end_images(const grid::Decomposition& decomp, const fields::LocalShape& shape) {
  if (!decomp.wraps_onto_itself(0) || shape.cells[0] < 2) return {};
  RowEndImages images;
  images.wraps = true;
  images.first = shape.ghost;
  images.last = shape.ghost + shape.cells[0] - 1;
  images.period = shape.cells[0];
  for (int a = 0; a < 3; ++a) {
    images.owned_lo[a] = shape.ghost;
    images.owned_hi[a] = shape.ghost + shape.cells[a];
  }
  return images;
}

}  // namespace eddy::parallel
