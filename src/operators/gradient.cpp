#include "operators/gradient.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "operators/correction_boxes.hpp"

#include <algorithm>
#include <type_traits>

namespace eddy::operators {
namespace {

/// value - d, stored at flat offset p of `vel` where the pair's faces lie in `box` (row j, plane k).
KOKKOS_FORCEINLINE_FUNCTION void store_corrected(Real* vel, int p, const FaceBox& box, int i, int j, int k,
                                                 const RealPair& value, const RealPair& d) {
  grid::store_pair(vel, p, {value.even - d.even, value.odd - d.odd}, box.contains(i, j, k), box.contains(i + 1, j, k));
}

/// subtract_pressure_gradient_by_pairs with the w component (3D) or without (2D).
template <bool HasZ>
void correction_columns(const fields::FlowState& state, const Field& phi, Real factor, const StaggeredGrid& grid,
                        const CorrectionBoxes& boxes, int longest) {
  const fields::LocalShape& s = grid.shape;
  const int sy = s.extent(0), sz = sy * s.extent(1), top = s.extent(2) - 1;
  Real* __restrict__ u = state.u.data();
  Real* __restrict__ v = state.v.data();
  Real* __restrict__ w = state.w.data();
  const Real* __restrict__ p = phi.data();
  const Real fx = factor * grid.inv.x, fy = factor * grid.inv.y, fz = factor * grid.inv.z;
  const FaceBox box_u = boxes.u, box_v = boxes.v, box_w = boxes.w;
  const int east_wrap = boxes.east_wrap, period = boxes.period;
  // Each plane's faces are loaded while the plane below is corrected, so a thread's loads of the next plane are in
  // flight across its stores. Held to four resident blocks per multiprocessor (64 registers): more registers ran no
  // faster and five blocks spill (tests/perf/RESULTS.md).
  grid::for_each_pair_column<4>(
      "projection::correct_velocity_by_pairs", boxes.lo, boxes.hi, longest, KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int column = c.i + sy * c.j;
        RealPair centre = grid::load_pair(p, column + sz * c.k0), above{}, w_face{};
        RealPair u_face = grid::load_pair(u, column + sz * c.k0), v_face = grid::load_pair(v, column + sz * c.k0);
        if (HasZ) {
          above = grid::load_pair(p, column + sz * (c.k0 + 1 < top ? c.k0 + 1 : top));
          w_face = grid::load_pair(w, column + sz * c.k0);
        }
        // The pressure east of the pair's odd face: across the wrap for the high x ghost face.
        const int east_step = c.i + 1 == east_wrap ? 2 - period : 2;
        for (int k = c.k0; k < c.k1; ++k) {
          const int q = column + sz * k, q_next = column + sz * (k + 1 < c.k1 ? k + 1 : k);
          // Every load before the first store: the compiler cannot move a load past a store to another field.
          RealPair next{}, w_next{};
          if (HasZ) {
            next = grid::load_pair(p, column + sz * (k + 2 < top ? k + 2 : top));  // a plane early
            w_next = grid::load_pair(w, q_next);
          }
          const RealPair north = grid::load_pair(p, q + sy), u_next = grid::load_pair(u, q_next),
                         v_next = grid::load_pair(v, q_next);
          const Real east = p[q + east_step];
          store_corrected(u, q, box_u, c.i, c.j, k, u_face,
                          {(centre.odd - centre.even) * fx, (east - centre.odd) * fx});
          store_corrected(v, q, box_v, c.i, c.j, k, v_face,
                          {(north.even - centre.even) * fy, (north.odd - centre.odd) * fy});
          if (HasZ) {
            store_corrected(w, q, box_w, c.i, c.j, k, w_face,
                            {(above.even - centre.even) * fz, (above.odd - centre.odd) * fz});
            centre = above;
            above = next;
            w_face = w_next;
          }
          u_face = u_next;
          v_face = v_next;
        }
      });
}

// 1 / the distance between the centres on either side of face n along `axis`: one spacing on a uniform grid, the
// face's own on a stretched one.
KOKKOS_INLINE_FUNCTION Real across_face(const InverseSpacing& inv, int axis, int) {
  return axis == 0 ? inv.x : (axis == 1 ? inv.y : inv.z);
}
KOKKOS_INLINE_FUNCTION Real across_face(const grid::GridMetric& m, int axis, int n) { return m.along(axis).inv_gap(n); }

// The correction point by point: one kernel for all components over the union of their face boxes, each point
// reading the pressure once for the two or three differences. Fields are accessed through int offsets
// (fields/flat_field.hpp).
template <bool Stretched>
void correction_by_points(const fields::FlowState& state, const Field& phi, Real factor, const StaggeredGrid& grid,
                          const CorrectedBoundaries& corrected, const parallel::RowEndImages& row_ends) {
  const fields::WritableFlatField u(state.u), v(state.v), w(state.w);
  const fields::FlatField p(phi);
  std::conditional_t<Stretched, grid::GridMetric, InverseSpacing> spacing;
  if constexpr (Stretched) {
    spacing = grid.metric;
  } else {
    spacing = grid.inv;
  }
  const bool three_d = grid.three_d;
  const CorrectionBoxes boxes = correction_boxes(grid, corrected, row_ends);
  const FaceBox box_u = boxes.u, box_v = boxes.v, box_w = boxes.w;
  const int east_wrap = boxes.east_wrap, period = boxes.period;
  grid::for_each_box_point(
      Stretched ? "projection::correct_velocity_stretched" : "projection::correct_velocity", boxes.lo, boxes.hi,
      KOKKOS_LAMBDA(int i, int j, int k) {
        if (box_u.contains(i, j, k)) {
          const int east = i == east_wrap ? i + 1 - period : i + 1;  // across the wrap for the high x ghost face
          u(i, j, k) -= factor * ((p(east, j, k) - p(i, j, k)) * across_face(spacing, 0, i));
        }
        if (box_v.contains(i, j, k))
          v(i, j, k) -= factor * ((p(i, j + 1, k) - p(i, j, k)) * across_face(spacing, 1, j));
        if (three_d && box_w.contains(i, j, k)) {
          w(i, j, k) -= factor * ((p(i, j, k + 1) - p(i, j, k)) * across_face(spacing, 2, k));
        }
      });
}

}  // namespace

void subtract_pressure_gradient(const fields::FlowState& state, const Field& phi, Real factor,
                                const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                const parallel::RowEndImages& row_ends) {
  if (grid.stretched) {
    correction_by_points<true>(state, phi, factor, grid, corrected, row_ends);
  } else if (grid::use_cell_pairs(grid.shape, {state.u, state.v, state.w, phi}) && pairs_take_row_ends(row_ends)) {
    subtract_pressure_gradient_by_pairs(state, phi, factor, grid, corrected, row_ends);
  } else {
    correction_by_points<false>(state, phi, factor, grid, corrected, row_ends);
  }
}

int correction_planes(int pair_planes) { return std::max(pair_planes / 2, 2); }

void subtract_pressure_gradient_by_pairs(const fields::FlowState& state, const Field& phi, Real factor,
                                         const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                         const parallel::RowEndImages& row_ends, int longest) {
  require(grid::fits_cell_pairs(grid.shape, {state.u, state.v, state.w, phi}),
          "subtract_pressure_gradient_by_pairs: rows of odd length or fields not aligned to pairs of values");
  require(pairs_take_row_ends(row_ends),
          "subtract_pressure_gradient_by_pairs: the high x ghost face would be the first of its pair (odd cells)");
  const CorrectionBoxes boxes = correction_boxes(grid, corrected, row_ends);
  if (longest <= 0) longest = correction_planes(grid.shape.pair_planes);
  if (grid.three_d) {
    correction_columns<true>(state, phi, factor, grid, boxes, longest);
  } else {
    correction_columns<false>(state, phi, factor, grid, boxes, longest);
  }
}

}  // namespace eddy::operators
