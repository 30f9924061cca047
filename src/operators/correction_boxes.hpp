#pragma once
// The faces the pressure-gradient correction moves, per velocity component, as boxes of view indices that kernels
// copy by value.
#include "operators/gradient.hpp"

namespace eddy::operators {

/// A box [lo, hi) of view indices, copied by value into kernels.
struct FaceBox {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  /// Whether view point (i, j, k) lies in the box.
  KOKKOS_INLINE_FUNCTION bool contains(int i, int j, int k) const {
    return i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
  }
};

/// The face boxes the correction moves, one per component, and their union. A component's box differs from the owned
/// cells only along its own axis, where a corrected boundary face adds or a physical high face removes one layer.
/// `east_wrap`: the boxes take the x ghost faces too (correction_boxes), and the high one reads its east pressure
/// across the wrap.
struct CorrectionBoxes {
  FaceBox u, v, w;
  Int3 lo, hi;
  int east_wrap = -1;  ///< x view index of the face whose east pressure lies across the wrap (-1: none)
  int period = 0;      ///< owned cells per row
};

/// The boxes of the correction of `grid`'s faces; with the rows' ends to write (`row_ends` not empty) every box also
/// takes the x ghost faces of its rows.
CorrectionBoxes correction_boxes(const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                 const parallel::RowEndImages& row_ends);

/// Whether a loop over face pairs can write `row_ends`: it reads the pressure east of a pair's second face only, so the
/// high x ghost face, whose east pressure lies across the wrap, must be a second face.
bool pairs_take_row_ends(const parallel::RowEndImages& row_ends);

}  // namespace eddy::operators
