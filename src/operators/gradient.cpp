#include "operators/gradient.hpp"

#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "operators/difference.hpp"

#include <algorithm>

namespace eddy::operators {
namespace {

// A box [lo, hi) of view indices, copied by value into kernels.
struct FaceBox {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  KOKKOS_INLINE_FUNCTION bool contains(int i, int j, int k) const {
    return i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
  }
};

}  // namespace

// One kernel for all components over the union of their face boxes: each point reads the pressure once for the
// two or three differences (one kernel per component reads it once each). A component's box differs from the owned
// cells only along its own axis, where a corrected boundary face adds or a physical high face removes one layer.
// Fields are accessed through int offsets (fields/flat_field.hpp).
void subtract_pressure_gradient(const fields::FlowState& state, const Field& phi, Real factor,
                                const StaggeredGrid& grid, const CorrectedBoundaries& corrected) {
  const fields::WritableFlatField u(state.u), v(state.v), w(state.w);
  const fields::FlatField p(phi);
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  FaceBox box[3];
  Int3 lo = grid.face_box(0, false, true).first, hi = grid.face_box(0, false, true).second;
  for (int a = 0; a < grid.components(); ++a) {
    const auto [box_lo, box_hi] = grid.face_box(a, corrected[a][0], corrected[a][1]);
    for (int d = 0; d < 3; ++d) {
      box[a].lo[d] = box_lo[d];
      box[a].hi[d] = box_hi[d];
      lo[d] = std::min(lo[d], box_lo[d]);
      hi[d] = std::max(hi[d], box_hi[d]);
    }
  }
  const FaceBox box_u = box[0], box_v = box[1], box_w = box[2];
  grid::for_each_box_point(
      "projection::correct_velocity", lo, hi, KOKKOS_LAMBDA(int i, int j, int k) {
        if (box_u.contains(i, j, k)) u(i, j, k) -= factor * ddx_center_to_face(p, i, j, k, inv.x);
        if (box_v.contains(i, j, k)) v(i, j, k) -= factor * ddy_center_to_face(p, i, j, k, inv.y);
        if (three_d && box_w.contains(i, j, k)) w(i, j, k) -= factor * ddz_center_to_face(p, i, j, k, inv.z);
      });
}

}  // namespace eddy::operators
