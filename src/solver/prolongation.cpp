#include "solver/prolongation.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"

namespace eddy::solver {
namespace {

// Linear interpolation between cell centres two fine cells apart: the parent's weight and the partner's.
constexpr Real parent_share = 0.75, partner_share = 0.25;

/// The view index of the parent cell and the linear-interpolation partner along one axis of a fine cell.
struct InterpolationAxis {
  int parent, partner;
  Real parent_weight, partner_weight;
};

KOKKOS_INLINE_FUNCTION InterpolationAxis interpolation_axis(int fine_index, int fine_ghost, int coarse_ghost,
                                                            int factor) {
  const int local = fine_index - fine_ghost;
  if (factor == 1) return {coarse_ghost + local, coarse_ghost + local, 1, 0};
  const int parent = coarse_ghost + (local >> 1);  // a ghost (local -1 or n) maps onto a coarse ghost
  return {parent, parent + ((local & 1) == 0 ? -1 : 1), parent_share, partner_share};
}

// The linear interpolation of the coarse correction at fine view index (i, j, k), the fine level coarsened by `factor`.
struct CoarseCorrection {
  const Real* c;
  int row, plane, fine_ghost, coarse_ghost;
  Kokkos::Array<int, 3> factor;

  CoarseCorrection(Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, const Int3& by)
      : c(coarse_x.data()),
        row(static_cast<int>(coarse_x.stride(1))),
        plane(static_cast<int>(coarse_x.stride(2))),
        fine_ghost(fine.shape.ghost),
        coarse_ghost(coarse.shape.ghost),
        factor{by[0], by[1], by[2]} {}

  KOKKOS_INLINE_FUNCTION Real operator()(int i, int j, int k) const {
    const auto ax = interpolation_axis(i, fine_ghost, coarse_ghost, factor[0]);
    const auto ay = interpolation_axis(j, fine_ghost, coarse_ghost, factor[1]);
    const auto az = interpolation_axis(k, fine_ghost, coarse_ghost, factor[2]);
    // Flat offsets from the parent, written out term by term: small arrays indexed in loops with run-time bounds go
    // to local memory.
    const Real* parent = c + ax.parent + row * ay.parent + plane * az.parent;
    const int dx = ax.partner - ax.parent, dy = row * (ay.partner - ay.parent), dz = plane * (az.partner - az.parent);
    const auto along_x = [&](int o) { return ax.parent_weight * parent[o] + ax.partner_weight * parent[o + dx]; };
    const auto along_xy = [&](int o) { return ay.parent_weight * along_x(o) + ay.partner_weight * along_x(o + dy); };
    return az.parent_weight * along_xy(0) + az.partner_weight * along_xy(dz);
  }
};

/// The flat strides the column form of the prolongation steps by: a row and a plane of the coarse and of the fine
/// field.
struct ColumnStrides {
  int coarse_row = 0, coarse_plane = 0, row = 0, plane = 0;
};

/// The strides of `coarse_x` and of the fine level's unpadded fields.
ColumnStrides column_strides(Field coarse_x, const PoissonLevel& fine) {
  const int row = fine.shape.extent(0);
  return {static_cast<int>(coarse_x.stride(1)), static_cast<int>(coarse_x.stride(2)), row, row * fine.shape.extent(1)};
}

/// The interpolations of one coarse plane for the two fine rows of a thread of prolong_add_by_columns.
struct RowPairs {
  RealPair first, second;
};

}  // namespace

// Each thread adds the correction to the two fine cells of one coarse parent along x, which share the parent's
// x-neighbours (12 coarse reads for two cells instead of 16).
void prolong_add_by_parent_pairs(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, int fy,
                                 int fz) {
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const Real* c = coarse_x.data();
  const int row = static_cast<int>(coarse_x.stride(1)), plane = static_cast<int>(coarse_x.stride(2));
  const fields::WritableFlatField fine_x(x);
  const Int3 lo{0, gf, gf}, hi{fine.shape.cells[0] / 2, gf + fine.shape.cells[1], gf + fine.shape.cells[2]};
  grid::for_each_box_point(
      "poisson::prolong_add", lo, hi, KOKKOS_LAMBDA(int pair, int j, int k) {
        const auto ay = interpolation_axis(j, gf, gc, fy);
        const auto az = interpolation_axis(k, gf, gc, fz);
        const Real* parent = c + gc + pair + row * ay.parent + plane * az.parent;
        const int dy = row * (ay.partner - ay.parent), dz = plane * (az.partner - az.parent);
        // Along x at offset o from the parent: the even cell's partner is on the low side, the odd cell's on the high.
        const auto even = [&](int o) { return parent_share * parent[o] + partner_share * parent[o - 1]; };
        const auto odd = [&](int o) { return parent_share * parent[o] + partner_share * parent[o + 1]; };
        const Real even_correction =
            az.parent_weight * (ay.parent_weight * even(0) + ay.partner_weight * even(dy)) +
            az.partner_weight * (ay.parent_weight * even(dz) + ay.partner_weight * even(dy + dz));
        const Real odd_correction = az.parent_weight * (ay.parent_weight * odd(0) + ay.partner_weight * odd(dy)) +
                                    az.partner_weight * (ay.parent_weight * odd(dz) + ay.partner_weight * odd(dy + dz));
        const int i = gf + 2 * pair;
        fine_x(i, j, k) += even_correction;
        fine_x(i + 1, j, k) += odd_correction;
      });
}

bool fits_prolongation_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields) {
  const auto& n = fine.shape.cells;
  return factor == Int3{2, 2, 2} && fine.decomp.global.dim == 3 && n[1] % 2 == 0 && n[2] % 2 == 0 &&
         fine.shape.ghost % 2 == 1 && grid::fits_cell_pairs(fine.shape, fields);
}

// Two fine rows per thread, local 2 t - 1 and 2 t (y coarsened by two, an odd ghost width): their parents are coarse
// rows t - 1 and t, each the other's partner, so both interpolate between the same two coarse rows, four coarse loads
// per coarse plane for eight fine cells. The threads of t = 0 and t = n / 2 hold a ghost row, which they read but do
// not write. Along x the pair's cells (local 2 m - 1 and 2 m) likewise lie in coarse columns m - 1 and m. A column
// starts on an even local plane and holds an even number of planes, so it takes them two at a time: both lie in
// coarse plane q, the even one leaning on q - 1, the odd one on q + 1. The next two fine planes are loaded before
// these are stored (evict-first: grid/pair_columns.hpp says why).
void prolong_add_by_columns(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse) {
  require(fits_prolongation_columns(fine, {2, 2, 2}, {x}),
          "prolong_add_by_columns: needs a 3D level coarsened by two along every axis, even cell counts, an odd ghost "
          "width and rows of aligned pairs");
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost, half_rows = fine.shape.cells[1] / 2;
  const Real* __restrict__ c = coarse_x.data();
  Real* __restrict__ f = x.data();
  const ColumnStrides strides = column_strides(coarse_x, fine);
  const auto& n = fine.shape.cells;
  grid::for_each_pair_column(
      "poisson::prolong_add_by_column_rows", {gf, 0, gf}, {gf + n[0], half_rows + 1, gf + n[2]}, fine.shape.pair_planes,
      KOKKOS_LAMBDA(const grid::PairColumn& col) {
        const int t = col.j;
        const bool first_row_in = t > 0, second_row_in = t < half_rows;
        const int west = gc + ((col.i - gf) >> 1);
        const int low_row = strides.coarse_row * (gc + t - 1) + west, high_row = low_row + strides.coarse_row;
        // Along y, then along x: the first row leans on the low coarse row, the second on the high one.
        const auto in_plane = [&](int q) {
          const Real* at = c + strides.coarse_plane * q;
          const Real a_low = at[low_row], a_high = at[low_row + 1], b_low = at[high_row], b_high = at[high_row + 1];
          const Real low0 = parent_share * a_low + partner_share * b_low;
          const Real high0 = parent_share * a_high + partner_share * b_high;
          const Real low1 = parent_share * b_low + partner_share * a_low;
          const Real high1 = parent_share * b_high + partner_share * a_high;
          return RowPairs{{parent_share * low0 + partner_share * high0, parent_share * high0 + partner_share * low0},
                          {parent_share * low1 + partner_share * high1, parent_share * high1 + partner_share * low1}};
        };
        const auto add = [](RealPair& value, const RealPair& parent, const RealPair& partner) {
          value.even += parent_share * parent.even + partner_share * partner.even;
          value.odd += parent_share * parent.odd + partner_share * partner.odd;
        };
        int q = gc + ((col.k0 - gf) >> 1);
        RowPairs below = in_plane(q - 1), centre = in_plane(q);
        int p = col.i + strides.row * (gf + 2 * t - 1) + strides.plane * col.k0;
        RowPairs even{grid::load_pair(f, p), grid::load_pair(f, p + strides.row)};
        RowPairs odd{grid::load_pair(f, p + strides.plane), grid::load_pair(f, p + strides.plane + strides.row)};
        for (int k = col.k0; k < col.k1; k += 2, p += 2 * strides.plane, ++q) {
          RowPairs next_even{}, next_odd{};
          if (k + 2 < col.k1) {
            next_even = {grid::load_pair(f, p + 2 * strides.plane),
                         grid::load_pair(f, p + 2 * strides.plane + strides.row)};
            next_odd = {grid::load_pair(f, p + 3 * strides.plane),
                        grid::load_pair(f, p + 3 * strides.plane + strides.row)};
          }
          const RowPairs above = in_plane(q + 1);
          add(even.first, centre.first, below.first);
          add(even.second, centre.second, below.second);
          add(odd.first, centre.first, above.first);
          add(odd.second, centre.second, above.second);
          const bool first_in = col.first_in, second_in = col.second_in;
          if (first_row_in) {
            grid::store_pair_evict_first(f, p, even.first, first_in, second_in);
            grid::store_pair_evict_first(f, p + strides.plane, odd.first, first_in, second_in);
          }
          if (second_row_in) {
            grid::store_pair_evict_first(f, p + strides.row, even.second, first_in, second_in);
            grid::store_pair_evict_first(f, p + strides.plane + strides.row, odd.second, first_in, second_in);
          }
          below = centre;
          centre = above;
          even = next_even;
          odd = next_odd;
        }
      });
}

void prolong_add_to_face_ghosts(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor) {
  const int gf = fine.shape.ghost;
  const auto& n = fine.shape.cells;
  const bool z_active = fine.decomp.global.dim == 3;
  // The faces whose ghosts mirror owned cells (of a neighbour rank or, wrapping, of this one), laid end to end: face
  // f holds points [start[f], start[f + 1]).
  Kokkos::Array<int, 7> start{};
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const bool mirrored = !fine.decomp.on_boundary(axis, f % 2) && (axis < 2 || z_active);
    start[f + 1] = start[f] + (mirrored ? n[(axis + 1) % 3] * n[(axis + 2) % 3] : 0);
  }
  if (start[6] == 0) return;
  const Kokkos::Array<int, 3> cells{n[0], n[1], n[2]};
  const CoarseCorrection coarse_at(coarse_x, fine, coarse, factor);
  Kokkos::parallel_for(
      "poisson::prolong_add_face_ghosts", Range(0, start[6]), KOKKOS_LAMBDA(int p) {
        int f = 0;
        while (p >= start[f + 1]) ++f;
        const int axis = f / 2, u = (axis + 1) % 3, v = (axis + 2) % 3, q = p - start[f];
        int at[3];
        at[axis] = f % 2 == 0 ? gf - 1 : gf + cells[axis];
        at[u] = gf + q % cells[u];
        at[v] = gf + q / cells[u];
        x(at[0], at[1], at[2]) += coarse_at(at[0], at[1], at[2]);
      });
}

void prolong_add(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, const Int3& factor) {
  if (grid::use_cell_pairs(fine.shape, {x}) && fits_prolongation_columns(fine, factor, {x})) {
    return prolong_add_by_columns(x, coarse_x, fine, coarse);
  }
  if (factor[0] == 2) return prolong_add_by_parent_pairs(x, coarse_x, fine, coarse, factor[1], factor[2]);
  const CoarseCorrection coarse_at(coarse_x, fine, coarse, factor);
  grid::for_each_owned_cell(
      "poisson::prolong_add", fine.shape, KOKKOS_LAMBDA(int i, int j, int k) { x(i, j, k) += coarse_at(i, j, k); });
}

}  // namespace eddy::solver
