// The portable form of the velocity stage (operators/velocity_stage.hpp): a thread per row of the view.
#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "operators/velocity_stage.hpp"
#include "operators/velocity_stage_point.hpp"

// GCC vectorizes the row's loop only with the stencil's functions inlined into it.
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define EDDY_ROW_LOOP [[gnu::flatten]] inline
#else
#define EDDY_ROW_LOOP KOKKOS_INLINE_FUNCTION
#endif

namespace eddy::operators {
namespace {

// One field around one row, read at stencil indices (i, j, k) from the row's start at (0, 0, 0): j and k are -1, 0 or
// 1, so their offsets leave the row's loop and each read is a load at i plus a constant.
struct RowNeighbourhood {
  const Real* start;
  int row, plane;
  KOKKOS_INLINE_FUNCTION Real operator()(int i, int j, int k) const { return start[i + j * row + k * plane]; }
};

// The stage over the points [i0, i1) of the row that starts at offset `base`, where it advances every component: the
// row's owned points that the momentum equation advances along x, on a row that it advances along y (and z). The body
// is StagePoint's with the stage's form as constants and no test per point, so that the loop vectorizes: the 3D
// stencil (ThreeD), R_k kept for the next stage (Keep), R_{k-1} read (Previous), u_0 blended in (Blend), the viscous
// term (Viscous).
template <class Flux, bool Blend, bool ThreeD, bool Keep, bool Previous, bool Viscous>
EDDY_ROW_LOOP void advance_row(const StagePoint& p, const Real* u, const Real* v, const Real* w, int base, int i0,
                               int i1) {
  const RowNeighbourhood ru{u + base, p.row, p.plane}, rv{v + base, p.row, p.plane},
      rw{(ThreeD ? w : v) + base, p.row, p.plane};
  Real *const next_u = p.next_u + base, *const next_v = p.next_v + base, *const next_w = p.next_w + base;
  Real *rhs_u = nullptr, *rhs_v = nullptr, *rhs_w = nullptr;
  if (Keep || Previous) rhs_u = p.rhs_u + base, rhs_v = p.rhs_v + base, rhs_w = p.rhs_w + base;
  const Real *start_u = nullptr, *start_v = nullptr, *start_w = nullptr;
  if (Blend) start_u = p.start_u + base, start_v = p.start_v + base, start_w = p.start_w + base;
  constexpr auto viscous = Viscous ? ViscousTerm::always : ViscousTerm::never;
#if defined(KOKKOS_ENABLE_OPENMP)
#pragma omp simd
#endif
  for (int i = i0; i < i1; ++i) {
    Real now_u, now_v, now_w = 0;
    if constexpr (!Flux::shares_edges) {
      now_u = momentum_tendency<0, Flux, viscous>(ru, rv, rw, i, 0, 0, p.inv, ThreeD, p.nu);
      now_v = momentum_tendency<1, Flux, viscous>(ru, rv, rw, i, 0, 0, p.inv, ThreeD, p.nu);
      if constexpr (ThreeD) {
        now_w = momentum_tendency<2, Flux, viscous>(ru, rv, rw, i, 0, 0, p.inv, ThreeD, p.nu);
      }
    } else {  // each edge two components share computed once, as StagePoint does
      const FaceTerms now = momentum_tendencies<Flux, viscous>(ru, rv, rw, i, 0, 0, p.inv, ThreeD, p.nu);
      now_u = now.u;
      now_v = now.v;
      now_w = now.w;
    }
    Real carried_u = 0, carried_v = 0, carried_w = 0;
    if constexpr (Previous) {
      carried_u = Blend ? p.b * rhs_u[i] : rhs_u[i];
      carried_v = Blend ? p.b * rhs_v[i] : rhs_v[i];
      if constexpr (ThreeD) carried_w = Blend ? p.b * rhs_w[i] : rhs_w[i];
    }
    if constexpr (Blend) {
      carried_u += p.c * start_u[i];
      carried_v += p.c * start_v[i];
      if constexpr (ThreeD) carried_w += p.c * start_w[i];
      next_u[i] = p.kept * ru(i, 0, 0) + (p.a * now_u + carried_u);
      next_v[i] = p.kept * rv(i, 0, 0) + (p.a * now_v + carried_v);
      if constexpr (ThreeD) next_w[i] = p.kept * rw(i, 0, 0) + (p.a * now_w + carried_w);
    } else {
      next_u[i] = ru(i, 0, 0) + (p.a * now_u + p.b * carried_u);
      next_v[i] = rv(i, 0, 0) + (p.a * now_v + p.b * carried_v);
      if constexpr (ThreeD) next_w[i] = rw(i, 0, 0) + (p.a * now_w + p.b * carried_w);
    }
    if constexpr (Keep) {
      rhs_u[i] = now_u;
      rhs_v[i] = now_v;
      if constexpr (ThreeD) rhs_w[i] = now_w;
    }
  }
}

// The stage by rows of the view, one (j, k) per iteration. A row the stage advances everywhere it is owned takes its
// owned points in advance_row and the few others (ghosts, a wall's face) point by point; every other row (ghost rows,
// the rows of walls' faces) point by point. The rows' ends are then copied to their images.
template <class Flux, bool Blend, bool ThreeD, bool Keep, bool Previous, bool Viscous>
void stage_rows(const fields::FlowState& state, const StagePoint& point, const Int3& extent) {
  const fields::FlatField u(state.u), v(state.v), w(state.w);
  const int ex = extent[0];
  Kokkos::parallel_for(
      "rk::momentum_stage_rows", grid::Policy2({0, 0}, {extent[1], extent[2]}), KOKKOS_LAMBDA(int j, int k) {
        const auto by_points = [&](int first, int last) {
          for (int i = first; i < last; ++i) {
            point.template operator()<Flux, Blend>(u, v, w, i, j, k, i, j, k,
                                                   point.template carried_at<Blend>(i, j, k));
          }
        };
        const bool owned_row = j >= point.ghost && j < point.owned_y && k >= point.ghost && k < point.owned_z;
        if (!owned_row || j >= point.end_v || (ThreeD && k >= point.end_w)) return by_points(0, ex);
        const int i0 = point.ghost;
        const int i1 = Kokkos::max(i0, Kokkos::min(point.owned_x, point.end_u));
        const int base = point.offset(0, j, k);
        by_points(0, i0);
        advance_row<Flux, Blend, ThreeD, Keep, Previous, Viscous>(point, u.data, v.data, w.data, base, i0, i1);
        by_points(i1, ex);
        const parallel::RowEndImages& ends = point.row_ends;
        if (!ends.wraps) return;
        const auto mirror_ends = [&](Real* next) {
          next[base + ends.first + ends.period] = next[base + ends.first];
          next[base + ends.last - ends.period] = next[base + ends.last];
        };
        mirror_ends(point.next_u);
        mirror_ends(point.next_v);
        if (ThreeD) mirror_ends(point.next_w);
      });
}

template <class Flux, bool Blend>
void stage_by_rows(const fields::FlowState& state, const StagePoint& point, const Int3& extent) {
  const bool previous = point.b != 0, viscous = point.nu != 0;
  const auto run = [&](auto three_d, auto keep) {
    constexpr bool ThreeD = decltype(three_d)::value, Keep = decltype(keep)::value;
    if (previous && viscous) return stage_rows<Flux, Blend, ThreeD, Keep, true, true>(state, point, extent);
    if (previous) return stage_rows<Flux, Blend, ThreeD, Keep, true, false>(state, point, extent);
    if (viscous) return stage_rows<Flux, Blend, ThreeD, Keep, false, true>(state, point, extent);
    stage_rows<Flux, Blend, ThreeD, Keep, false, false>(state, point, extent);
  };
  if (point.three_d && point.keep) return run(std::true_type{}, std::true_type{});
  if (point.three_d) return run(std::true_type{}, std::false_type{});
  if (point.keep) return run(std::false_type{}, std::true_type{});
  run(std::false_type{}, std::false_type{});
}

}  // namespace

void velocity_stage_by_rows(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                            config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights) {
  const StagePoint point(targets, grid, viscosity, weights);
  with_stage_form(scheme, weights, [&](auto flux, auto blend) {
    stage_by_rows<decltype(flux), decltype(blend)::value>(state, point, view_extent(grid));
  });
}

}  // namespace eddy::operators
