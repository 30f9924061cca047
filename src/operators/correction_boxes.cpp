#include "operators/correction_boxes.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <tuple>

namespace eddy::operators {

bool pairs_take_row_ends(const parallel::RowEndImages& row_ends) {
  return row_ends.empty() || (row_ends.last + 1) % 2 == 1;
}

// With the velocity's and the pressure's ghosts valid, a ghost face's correction is that of the owned face it mirrors,
// computed from the same values, so it lands there as the exchange would copy it.
CorrectionBoxes correction_boxes(const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                 const parallel::RowEndImages& row_ends) {
  require(row_ends.empty() || (!corrected[1][0] && !corrected[1][1] && !corrected[2][0] && !corrected[2][1]),
          "subtract_pressure_gradient: the rows' ends are written only where no y or z boundary face is corrected");
  CorrectionBoxes boxes;
  FaceBox* box[3] = {&boxes.u, &boxes.v, &boxes.w};
  std::tie(boxes.lo, boxes.hi) = grid.face_box(0, false, true);
  for (int a = 0; a < grid.components(); ++a) {
    auto [box_lo, box_hi] = grid.face_box(a, corrected[a][0], corrected[a][1]);
    if (!row_ends.empty()) {
      box_lo[0] = row_ends.first - 1;
      box_hi[0] = row_ends.last + 2;
    }
    for (int d = 0; d < 3; ++d) {
      box[a]->lo[d] = box_lo[d];
      box[a]->hi[d] = box_hi[d];
      boxes.lo[d] = std::min(boxes.lo[d], box_lo[d]);
      boxes.hi[d] = std::max(boxes.hi[d], box_hi[d]);
    }
  }
  if (!row_ends.empty()) {
    boxes.east_wrap = row_ends.last + 1;
    boxes.period = row_ends.period;
  }
  return boxes;
}

}  // namespace eddy::operators
