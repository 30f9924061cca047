#include "operators/correction_with_diagnostics.hpp"

#include "core/error.hpp"
#include "grid/pair_columns.hpp"
#include "operators/correction_boxes.hpp"
#include "operators/diagnostic_sums.hpp"

#include <algorithm>

namespace eddy::operators {
namespace {

// `value` - factor * (high - low): one face's correction, written once so that every face is corrected alike.
KOKKOS_FORCEINLINE_FUNCTION Real corrected_face(Real value, Real high, Real low, Real factor) {
  return value - (high - low) * factor;
}

// The faces whose value once the ghosts are filled is the corrected one: those the correction moves, and the low ghost
// faces that the exchange fills from a neighbour (another rank or the periodic wrap), whose correction of the same
// values it copies.
FaceBox seen_corrected(const FaceBox& moved, int axis, const StaggeredGrid& grid) {
  FaceBox seen = moved;
  if (!grid.physical[axis][0]) seen.lo[axis] = std::min(seen.lo[axis], grid.shape.ghost - 1);
  return seen;
}

/// correct_and_diagnose with the w component (3D) or without (2D). Each thread marches a column of face pairs over the
/// whole view (up to the rows' padding), so that every point of `out` is written; the cells of the column that the
/// rank owns add to the diagnostics. The pressure is loaded a plane ahead.
template <bool HasZ>
DiagnosticSums diagnosed_columns(const fields::FlowState& state, const fields::FaceVector& out, Real factor,
                                 const StaggeredGrid& grid, const CorrectionBoxes& boxes) {
  const fields::LocalShape& s = grid.shape;
  const int g = s.ghost, sy = s.extent(0), ny = s.extent(1), nz = s.extent(2), sz = sy * ny, top = nz - 1;
  const int row_end = s.cells[0] + 2 * g;  // past it only the rows' padding
  const Real* __restrict__ u = state.u.data();
  const Real* __restrict__ v = state.v.data();
  const Real* __restrict__ w = state.w.data();
  const Real* __restrict__ p = state.p.data();
  Real* __restrict__ u_out = out.u.data();
  Real* __restrict__ v_out = out.v.data();
  Real* __restrict__ w_out = out.w.data();
  const Real fx = factor * grid.inv.x, fy = factor * grid.inv.y, fz = factor * grid.inv.z;
  const FaceBox box_u = boxes.u, box_v = boxes.v, box_w = boxes.w;
  const FaceBox seen_u = seen_corrected(box_u, 0, grid), seen_v = seen_corrected(box_v, 1, grid),
                seen_w = seen_corrected(box_w, 2, grid);
  const FaceBox cells{{g, g, g}, {g + s.cells[0], g + s.cells[1], g + s.cells[2]}};
  InverseSpacing inv = grid.inv;
  if (!HasZ) inv.z = 0;
  const int east_wrap = boxes.east_wrap, period = boxes.period;
  const Int3 lo{0, 0, 0}, hi{row_end + row_end % 2, ny, nz};
  const auto march = KOKKOS_LAMBDA(const grid::PairColumn& c, DiagnosticSums& local) {
    const int column = c.i + sy * c.j;
    // Up the column only the plane changes: the bits of `moved` and `seen` say which of the pair's faces lie in the
    // boxes along x and y.
    enum : int { u_even = 1, u_odd = 2, v_even = 4, v_odd = 8, w_even = 16, w_odd = 32 };
    const auto xy = [&](const FaceBox& b, int j, int even, int odd) {
      const bool row = j >= b.lo[1] && j < b.hi[1];
      return (row && c.i >= b.lo[0] && c.i < b.hi[0] ? even : 0) |
             (row && c.i + 1 >= b.lo[0] && c.i + 1 < b.hi[0] ? odd : 0);
    };
    const int moved = xy(box_u, c.j, u_even, u_odd) | xy(box_v, c.j, v_even, v_odd) | xy(box_w, c.j, w_even, w_odd);
    const int seen = xy(seen_u, c.j, u_even, u_odd) | xy(seen_v, c.j, v_even, v_odd) | xy(seen_w, c.j, w_even, w_odd);
    const int seen_south = xy(seen_v, c.j - 1, v_even, v_odd);
    const bool west_seen = c.j >= seen_u.lo[1] && c.j < seen_u.hi[1] && c.i - 1 >= seen_u.lo[0] &&
                           c.i - 1 < seen_u.hi[0];  // the face west of the first cell
    const bool first_cell = c.i >= cells.lo[0] && c.i < cells.hi[0];
    const bool second_cell = c.i + 1 >= cells.lo[0] && c.i + 1 < cells.hi[0];
    const bool diagnosed = c.j >= cells.lo[1] && c.j < cells.hi[1] && (first_cell || second_cell);
    const auto in_z = [](const FaceBox& b, int k) { return k >= b.lo[2] && k < b.hi[2]; };
    const auto pick = [](int mask, int bit, Real raw, Real corrected) { return mask & bit ? corrected : raw; };
    const int east_step = c.i + 1 == east_wrap ? 2 - period : c.i + 2 < sy ? 2 : 1;
    const int north_step = c.j + 1 < ny ? sy : 0;
    RealPair centre = grid::load_pair(p, column + sz * c.k0), above{}, w_low{};
    if (HasZ) {
      above = grid::load_pair(p, column + sz * (c.k0 + 1 < top ? c.k0 + 1 : top));
      if (diagnosed && c.k0 >= 1) {
        const int q = column + sz * (c.k0 - 1);
        const RealPair w_below = grid::load_pair(w, q), p_below = grid::load_pair(p, q);
        const int below = in_z(seen_w, c.k0 - 1) ? seen : 0;
        w_low = {pick(below, w_even, w_below.even, corrected_face(w_below.even, centre.even, p_below.even, fz)),
                 pick(below, w_odd, w_below.odd, corrected_face(w_below.odd, centre.odd, p_below.odd, fz))};
      }
    }
    for (int k = c.k0; k < c.k1; ++k) {
      const int q = column + sz * k;
      const RealPair next = HasZ ? grid::load_pair(p, column + sz * (k + 2 < top ? k + 2 : top)) : RealPair{};
      const RealPair u_face = grid::load_pair(u, q), v_face = grid::load_pair(v, q),
                     w_face = HasZ ? grid::load_pair(w, q) : RealPair{}, north = grid::load_pair(p, q + north_step);
      const Real east = p[q + east_step];
      // The masks of this plane: u and v lie in their boxes on the owned planes, w on its own range.
      const int moved_k = (in_z(box_u, k) ? moved & (u_even | u_odd | v_even | v_odd) : 0) |
                          (in_z(box_w, k) ? moved & (w_even | w_odd) : 0);
      const int seen_k = (in_z(seen_u, k) ? seen & (u_even | u_odd | v_even | v_odd) : 0) |
                         (in_z(seen_w, k) ? seen & (w_even | w_odd) : 0);
      const RealPair u_new{corrected_face(u_face.even, centre.odd, centre.even, fx),
                           corrected_face(u_face.odd, east, centre.odd, fx)};
      const RealPair v_new{corrected_face(v_face.even, north.even, centre.even, fy),
                           corrected_face(v_face.odd, north.odd, centre.odd, fy)};
      grid::store_pair(u_out, q,
                       {pick(moved_k, u_even, u_face.even, u_new.even), pick(moved_k, u_odd, u_face.odd, u_new.odd)},
                       true, true);
      grid::store_pair(v_out, q,
                       {pick(moved_k, v_even, v_face.even, v_new.even), pick(moved_k, v_odd, v_face.odd, v_new.odd)},
                       true, true);
      RealPair w_new{};
      if (HasZ) {
        w_new = {corrected_face(w_face.even, above.even, centre.even, fz),
                 corrected_face(w_face.odd, above.odd, centre.odd, fz)};
        grid::store_pair(w_out, q,
                         {pick(moved_k, w_even, w_face.even, w_new.even), pick(moved_k, w_odd, w_face.odd, w_new.odd)},
                         true, true);
      }
      if (diagnosed) {
        const RealPair w_seen{pick(seen_k, w_even, w_face.even, w_new.even),
                              pick(seen_k, w_odd, w_face.odd, w_new.odd)};
        if (k >= cells.lo[2] && k < cells.hi[2]) {
          // The faces south of the pair and west of its first cell, as the cells see them.
          const RealPair v_south = grid::load_pair(v, q - sy), p_south = grid::load_pair(p, q - sy);
          const Real u_even_seen = pick(seen_k, u_even, u_face.even, u_new.even);
          const Real v_even_seen = pick(seen_k, v_even, v_face.even, v_new.even);
          const Real v_odd_seen = pick(seen_k, v_odd, v_face.odd, v_new.odd);
          if (first_cell) {
            const Real u_west = u[q - 1];
            const Real u_low = west_seen ? corrected_face(u_west, centre.even, p[q - 1], fx) : u_west;
            add_cell(
                local, u_low, u_even_seen,
                pick(seen_south, v_even, v_south.even, corrected_face(v_south.even, centre.even, p_south.even, fy)),
                v_even_seen, w_low.even, w_seen.even, inv);
          }
          if (second_cell) {
            add_cell(local, u_even_seen, pick(seen_k, u_odd, u_face.odd, u_new.odd),
                     pick(seen_south, v_odd, v_south.odd, corrected_face(v_south.odd, centre.odd, p_south.odd, fy)),
                     v_odd_seen, w_low.odd, w_seen.odd, inv);
          }
        }
        w_low = w_seen;
      }
      if (HasZ) {
        centre = above;
        above = next;
      }
    }
  };
  DiagnosticSums sums;
  // Held to three teams per multiprocessor: 80 registers a thread hold the march without spills, which four teams (64
  // registers) cause; two teams hide less latency (measured in tests/perf/RESULTS.md).
  grid::reduce_over_pair_columns<3>("projection::correct_and_diagnose", lo, hi, grid::reduction_planes(s.pair_planes),
                                    grid.reduction_scratch, march, DiagnosticReducer(sums));
  return sums;
}

}  // namespace

bool fits_diagnosed_correction(const fields::FlowState& state, const fields::FaceVector& out, const StaggeredGrid& grid,
                               const parallel::RowEndImages& row_ends) {
  const Field w = grid.three_d ? state.w : Field(), w_out = grid.three_d ? out.w : Field();
  return grid::fits_cell_pairs(grid.shape, {state.u, state.v, w, state.p, out.u, out.v, w_out}) &&
         pairs_take_row_ends(row_ends);
}

LocalDiagnostics correct_and_diagnose(const fields::FlowState& state, const fields::FaceVector& out, Real factor,
                                      const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                      const parallel::RowEndImages& row_ends) {
  require(fits_diagnosed_correction(state, out, grid, row_ends),
          "correct_and_diagnose: rows of odd length, fields not aligned to pairs of values, or a high x ghost face "
          "that is the first of its pair");
  const CorrectionBoxes boxes = correction_boxes(grid, corrected, row_ends);
  const DiagnosticSums sums = grid.three_d ? diagnosed_columns<true>(state, out, factor, grid, boxes)
                                           : diagnosed_columns<false>(state, out, factor, grid, boxes);
  return local_diagnostics_of(sums, grid);
}

}  // namespace eddy::operators
