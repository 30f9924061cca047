#include "operators/gradient.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "operators/difference.hpp"

#include <algorithm>
#include <tuple>
#include <type_traits>

namespace eddy::operators {
namespace {

// A box [lo, hi) of view indices, copied by value into kernels.
struct FaceBox {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  KOKKOS_INLINE_FUNCTION bool contains(int i, int j, int k) const {
    return i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
  }
};

// The face boxes the correction moves, one per component, and their union. A component's box differs from the owned
// cells only along its own axis, where a corrected boundary face adds or a physical high face removes one layer.
struct CorrectionBoxes {
  FaceBox u, v, w;
  Int3 lo, hi;
};

CorrectionBoxes correction_boxes(const StaggeredGrid& grid, const CorrectedBoundaries& corrected) {
  CorrectionBoxes boxes;
  FaceBox* box[3] = {&boxes.u, &boxes.v, &boxes.w};
  std::tie(boxes.lo, boxes.hi) = grid.face_box(0, false, true);
  for (int a = 0; a < grid.components(); ++a) {
    const auto [box_lo, box_hi] = grid.face_box(a, corrected[a][0], corrected[a][1]);
    for (int d = 0; d < 3; ++d) {
      box[a]->lo[d] = box_lo[d];
      box[a]->hi[d] = box_hi[d];
      boxes.lo[d] = std::min(boxes.lo[d], box_lo[d]);
      boxes.hi[d] = std::max(boxes.hi[d], box_hi[d]);
    }
  }
  return boxes;
}

// The images of a pair of faces at the ends of an owned row: the offset to each face's image, 0 where it has none.
struct PairImages {
  int even = 0, odd = 0;
};

/// value - d, stored at flat offset p of `vel` where the pair's faces lie in `box` (row j, plane k), and, WithImages,
/// at the `images` of those faces.
template <bool WithImages>
KOKKOS_FORCEINLINE_FUNCTION void store_corrected(Real* vel, int p, const FaceBox& box, const PairImages& images, int i,
                                                 int j, int k, const RealPair& value, const RealPair& d) {
  const RealPair corrected{value.even - d.even, value.odd - d.odd};
  const bool even_in = box.contains(i, j, k), odd_in = box.contains(i + 1, j, k);
  grid::store_pair(vel, p, corrected, even_in, odd_in);
  if (!WithImages) return;
  if (images.even != 0 && even_in) vel[p + images.even] = corrected.even;
  if (images.odd != 0 && odd_in) vel[p + 1 + images.odd] = corrected.odd;
}

/// subtract_pressure_gradient_by_pairs with the w component (3D) or without (2D).
template <bool HasZ>
void correction_columns(const fields::FlowState& state, const Field& phi, Real factor, const StaggeredGrid& grid,
                        const CorrectionBoxes& boxes, const parallel::RowEndImages& row_ends) {
  const fields::LocalShape& s = grid.shape;
  const int sy = s.extent(0), sz = sy * s.extent(1), top = s.extent(2) - 1;
  Real* __restrict__ u = state.u.data();
  Real* __restrict__ v = state.v.data();
  Real* __restrict__ w = state.w.data();
  const Real* __restrict__ p = phi.data();
  const Real fx = factor * grid.inv.x, fy = factor * grid.inv.y, fz = factor * grid.inv.z;
  const FaceBox box_u = boxes.u, box_v = boxes.v, box_w = boxes.w;
  // Each plane's faces are loaded while the plane below is corrected, so a thread's loads of the next plane are in
  // flight across its stores. Held to four resident blocks per multiprocessor (64 registers): on an H200 at 512^3
  // 2.182-2.184 ms against 2.30-2.33 for faces loaded at their own plane (five blocks, 48 registers); unbounded (76
  // registers) no faster, at five blocks (spills) 2.60.
  grid::for_each_pair_column<4>(
      "projection::correct_velocity_by_pairs", boxes.lo, boxes.hi, KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int column = c.i + sy * c.j;
        RealPair centre = grid::load_pair(p, column + sz * c.k0), above{}, w_face{};
        RealPair u_face = grid::load_pair(u, column + sz * c.k0), v_face = grid::load_pair(v, column + sz * c.k0);
        if (HasZ) {
          above = grid::load_pair(p, column + sz * (c.k0 + 1 < top ? c.k0 + 1 : top));
          w_face = grid::load_pair(w, column + sz * c.k0);
        }
        // The planes of the column, with the images of the faces at the ends of owned rows where WithImages (the two
        // columns at the ends of a row that has images, a separate copy of the loop so the others run it unchanged).
        const auto march = [&](auto with_images) {
          constexpr bool WithImages = decltype(with_images)::value;
          for (int k = c.k0; k < c.k1; ++k) {
            const int q = column + sz * k, q_next = column + sz * (k + 1 < c.k1 ? k + 1 : k);
            PairImages images;
            if (WithImages && row_ends.owned_row(c.j, k)) {
              images = {row_ends.image_offset(c.i), row_ends.image_offset(c.i + 1)};
            }
            // Every load before the first store: the compiler cannot move a load past a store to another field.
            RealPair next{}, w_next{};
            if (HasZ) {
              next = grid::load_pair(p, column + sz * (k + 2 < top ? k + 2 : top));  // a plane early
              w_next = grid::load_pair(w, q_next);
            }
            const RealPair north = grid::load_pair(p, q + sy), u_next = grid::load_pair(u, q_next),
                           v_next = grid::load_pair(v, q_next);
            const Real east = p[q + 2];
            store_corrected<WithImages>(u, q, box_u, images, c.i, c.j, k, u_face,
                                        {(centre.odd - centre.even) * fx, (east - centre.odd) * fx});
            store_corrected<WithImages>(v, q, box_v, images, c.i, c.j, k, v_face,
                                        {(north.even - centre.even) * fy, (north.odd - centre.odd) * fy});
            if (HasZ) {
              store_corrected<WithImages>(w, q, box_w, images, c.i, c.j, k, w_face,
                                          {(above.even - centre.even) * fz, (above.odd - centre.odd) * fz});
              centre = above;
              above = next;
              w_face = w_next;
            }
            u_face = u_next;
            v_face = v_next;
          }
        };
        if (row_ends.image_offset(c.i) != 0 || row_ends.image_offset(c.i + 1) != 0) {
          march(std::true_type{});
        } else {
          march(std::false_type{});
        }
      });
}

}  // namespace

// One kernel for all components over the union of their face boxes: each point reads the pressure once for the
// two or three differences (one kernel per component reads it once each). Fields are accessed through int offsets
// (fields/flat_field.hpp).
void subtract_pressure_gradient(const fields::FlowState& state, const Field& phi, Real factor,
                                const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                const parallel::RowEndImages& row_ends) {
  if (grid::use_cell_pairs(grid.shape, {state.u, state.v, state.w, phi})) {
    subtract_pressure_gradient_by_pairs(state, phi, factor, grid, corrected, row_ends);
    return;
  }
  const fields::WritableFlatField u(state.u), v(state.v), w(state.w);
  const fields::FlatField p(phi);
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  const CorrectionBoxes boxes = correction_boxes(grid, corrected);
  const FaceBox box_u = boxes.u, box_v = boxes.v, box_w = boxes.w;
  grid::for_each_box_point(
      "projection::correct_velocity", boxes.lo, boxes.hi, KOKKOS_LAMBDA(int i, int j, int k) {
        // The new value at (i, j, k), and at its image where it ends an owned row.
        const int image = row_ends.owned_row(j, k) ? row_ends.image_offset(i) : 0;
        const auto store = [&](const fields::WritableFlatField& f, Real value) {
          f(i, j, k) = value;
          if (image != 0) f(i + image, j, k) = value;
        };
        if (box_u.contains(i, j, k)) store(u, u(i, j, k) - factor * ddx_center_to_face(p, i, j, k, inv.x));
        if (box_v.contains(i, j, k)) store(v, v(i, j, k) - factor * ddy_center_to_face(p, i, j, k, inv.y));
        if (three_d && box_w.contains(i, j, k)) store(w, w(i, j, k) - factor * ddz_center_to_face(p, i, j, k, inv.z));
      });
}

void subtract_pressure_gradient_by_pairs(const fields::FlowState& state, const Field& phi, Real factor,
                                         const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                         const parallel::RowEndImages& row_ends) {
  require(grid::fits_cell_pairs(grid.shape, {state.u, state.v, state.w, phi}),
          "subtract_pressure_gradient_by_pairs: rows of odd length or fields not aligned to pairs of values");
  const CorrectionBoxes boxes = correction_boxes(grid, corrected);
  if (grid.three_d) {
    correction_columns<true>(state, phi, factor, grid, boxes, row_ends);
  } else {
    correction_columns<false>(state, phi, factor, grid, boxes, row_ends);
  }
}

}  // namespace eddy::operators
