#include "operators/divergence.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "operators/divergence_stencil.hpp"
#include "operators/stretched_stencils.hpp"

#include <type_traits>

namespace eddy::operators {
namespace {

grid::IndexBox owned_box(const fields::LocalShape& s) {
  const int g = s.ghost;
  return {{g, g, g}, {g + s.cells[0], g + s.cells[1], g + s.cells[2]}};
}

/// scale * div(u) of one cell, for the cell loops, over the widths of a stretched grid's cells where `Stretched`.
template <bool Stretched>
struct CellDivergence {
  using Spacing = std::conditional_t<Stretched, grid::GridMetric, InverseSpacing>;
  Field u, v, w, target;
  Spacing spacing;
  bool three_d;
  Real scale;
  CellDivergence(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale_in)
      : u(state.u), v(state.v), w(state.w), target(out), three_d(grid.three_d), scale(scale_in) {
    if constexpr (Stretched) {
      spacing = grid.metric;
    } else {
      spacing = grid.inv;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    if constexpr (Stretched) {
      target(i, j, k) = scale * stretched_divergence(u, v, w, i, j, k, spacing, three_d);
    } else {
      target(i, j, k) = scale * divergence_at_center(u, v, w, i, j, k, spacing, three_d);
    }
  }
};

/// compute_divergence_by_pairs with the w term (3D) or without (2D).
template <bool HasZ>
void divergence_columns(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale,
                        const grid::IndexBox& box) {
  const fields::LocalShape& s = grid.shape;
  const int sy = s.extent(0), sz = sy * s.extent(1);
  const Real* __restrict__ u = state.u.data();
  const Real* __restrict__ v = state.v.data();
  const Real* __restrict__ w = state.w.data();
  Real* __restrict__ div = out.data();
  const Real ix = scale * grid.inv.x, iy = scale * grid.inv.y, iz = scale * grid.inv.z;
  grid::for_each_pair_column(
      "flow::divergence_by_pairs", box.lo, box.hi, s.pair_planes, KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int column = c.i + sy * c.j;
        RealPair w_low{};  // the z-faces below the pair's cells
        if (HasZ) w_low = grid::load_pair(w, column + sz * (c.k0 - 1));
        for (int k = c.k0; k < c.k1; ++k) {
          const int p = column + sz * k;
          const RealPair u_high = grid::load_pair(u, p), v_high = grid::load_pair(v, p),
                         v_low = grid::load_pair(v, p - sy);
          const Real u_low = u[p - 1];
          RealPair d;
          d.even = (u_high.even - u_low) * ix + (v_high.even - v_low.even) * iy;
          d.odd = (u_high.odd - u_high.even) * ix + (v_high.odd - v_low.odd) * iy;
          if (HasZ) {
            const RealPair w_high = grid::load_pair(w, p);
            d.even += (w_high.even - w_low.even) * iz;
            d.odd += (w_high.odd - w_low.odd) * iz;
            w_low = w_high;
          }
          grid::store_pair(div, p, d, c.first_in, c.second_in);
        }
      });
}

}  // namespace

void compute_divergence(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale) {
  if (grid.stretched) {
    grid::for_each_owned_cell("flow::divergence_stretched", grid.shape, CellDivergence<true>(state, out, grid, scale));
    return;
  }
  if (grid::use_cell_pairs(grid.shape, {state.u, state.v, state.w, out})) {
    compute_divergence_by_pairs(state, out, grid, scale);
    return;
  }
  grid::for_each_owned_cell("flow::divergence", grid.shape, CellDivergence<false>(state, out, grid, scale));
}

void compute_divergence_in(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale,
                           const grid::IndexBox& box) {
  if (grid.stretched) {
    grid::for_each_box_point("flow::divergence_stretched", box.lo, box.hi,
                             CellDivergence<true>(state, out, grid, scale));
    return;
  }
  if (grid::use_cell_pairs(grid.shape, {state.u, state.v, state.w, out})) {
    compute_divergence_by_pairs(state, out, grid, scale, box);
    return;
  }
  grid::for_each_box_point("flow::divergence", box.lo, box.hi, CellDivergence<false>(state, out, grid, scale));
}

void compute_divergence_by_pairs(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid,
                                 Real scale, const grid::IndexBox& box) {
  require(grid::fits_cell_pairs(grid.shape, {state.u, state.v, state.w, out}),
          "compute_divergence_by_pairs: rows of odd length or fields not aligned to pairs of values");
  if (grid.three_d) {
    divergence_columns<true>(state, out, grid, scale, box);
  } else {
    divergence_columns<false>(state, out, grid, scale, box);
  }
}

void compute_divergence_by_pairs(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid,
                                 Real scale) {
  compute_divergence_by_pairs(state, out, grid, scale, owned_box(grid.shape));
}

}  // namespace eddy::operators
