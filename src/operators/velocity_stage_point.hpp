#pragma once
// The velocity stage at one view point, shared by the stage's loops: the tile loop evaluates it at every point
// (operators/velocity_stage_tiles.cpp), the row loop at the points outside its vectorized runs
// (operators/velocity_stage_rows.cpp).
#include "core/error.hpp"
#include "operators/momentum_tendency.hpp"
#include "operators/velocity_stage.hpp"

#include <initializer_list>
#include <limits>
#include <type_traits>

namespace eddy::operators {

// Whether every field has the strides of `reference`, is contiguous along x and holds fewer than 2^31 points: then
// one int offset per point addresses all of them. Fields left empty are not read and pass.
inline bool share_one_shape(const Field& reference, std::initializer_list<Field> fields) {
  for (const Field& f : fields) {
    if (!f.is_allocated()) continue;
    if (f.stride(0) != 1 || f.stride(1) != reference.stride(1) || f.stride(2) != reference.stride(2) ||
        f.span() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      return false;
    }
  }
  return true;
}

// The stage at one view point (i, j, k), its velocity neighbourhood read through accessors at stencil indices
// (si, sj, sk): the row loop passes the fields at (i, j, k), the tile loop its staged planes. Every load comes before
// the first store: a store of R_k may alias the loads that follow it, and storing it before the next component's loads
// ran the stage far slower with the same memory traffic (tests/perf/RESULTS.md). u*, R_{k-1}, R_k and u_0 share one
// shape, so one offset per point addresses them all (with an offset per field the kernel reloaded each field's strides
// from its parameters at every point).
struct StagePoint {
  Real *next_u, *next_v, *next_w, *rhs_u, *rhs_v, *rhs_w;
  const Real *start_u, *start_v, *start_w;
  int row, plane;  // the strides of every field of the stage
  InverseSpacing inv;
  bool three_d, keep;
  Real nu, a, b, c, kept;  // kept = 1 - c: the share of u where the stage advances it
  int ghost;
  int owned_x, owned_y, owned_z;  // one past the last owned point
  int end_u, end_v, end_w;        // one past the last advanced face of each component
  parallel::RowEndImages row_ends;

  StagePoint(const StageTargets& t, const StaggeredGrid& grid, Real viscosity, const StageWeights& w)
      : next_u(t.next.u.data()),
        next_v(t.next.v.data()),
        next_w(t.next.w.data()),
        rhs_u(t.tendency.u.data()),
        rhs_v(t.tendency.v.data()),
        rhs_w(t.tendency.w.data()),
        start_u(t.start.u.data()),
        start_v(t.start.v.data()),
        start_w(t.start.w.data()),
        row(static_cast<int>(t.next.u.stride(1))),
        plane(static_cast<int>(t.next.u.stride(2))),
        inv(grid.inv),
        three_d(grid.three_d),
        keep(w.next_stage_reads_tendency),
        nu(viscosity),
        a(w.current),
        b(w.previous),
        c(w.start),
        kept(1 - w.start),
        ghost(grid.shape.ghost),
        owned_x(ghost + grid.shape.cells[0]),
        owned_y(ghost + grid.shape.cells[1]),
        owned_z(ghost + grid.shape.cells[2]),
        end_u(grid.momentum_box(0).second[0]),
        end_v(grid.momentum_box(1).second[1]),
        end_w(grid.momentum_box(2).second[2]),
        row_ends(t.row_ends) {
    require(share_one_shape(t.next.u, {t.next.u, t.next.v, t.next.w, t.tendency.u, t.tendency.v, t.tendency.w,
                                       t.start.u, t.start.v, t.start.w}),
            "velocity_stage: the stage's targets differ in shape or hold 2^31 points or more");
    require((b == 0 && !keep) || t.tendency.u.is_allocated(), "velocity_stage: the stage's tendency has no buffer");
    require(c == 0 || t.start.u.is_allocated(), "velocity_stage: the start weight needs the step's starting velocity");
  }

  /// The offset of view point (i, j, k) in every field of the stage.
  KOKKOS_INLINE_FUNCTION int offset(int i, int j, int k) const { return i + j * row + k * plane; }

  // Which components the stage advances at view point (i, j, k): owned faces inside their component's momentum box.
  struct Advanced {
    bool u, v, w;
  };
  KOKKOS_INLINE_FUNCTION Advanced advanced(int i, int j, int k) const {
    const bool owned = i >= ghost && i < owned_x && j >= ghost && j < owned_y && k >= ghost && k < owned_z;
    return {owned && i < end_u, owned && j < end_v, three_d && owned && k < end_w};
  }

  // What earlier stages carry into view point (i, j, k) where the stage advances the component, 0 elsewhere: R_{k-1},
  // or, where the stage blends in u_0, b R_{k-1} + c u_0. Only the fields with a weight are read. A stage that blends
  // is a separate instantiation (Blend), so that the others run the kernel they ran before the blend existed.
  struct Carried {
    Real u = 0, v = 0, w = 0;
  };
  template <bool Blend>
  KOKKOS_INLINE_FUNCTION Carried carried_at(int i, int j, int k) const {
    Carried carried;
    if (b == 0 && (!Blend || c == 0)) return carried;
    const Advanced on = advanced(i, j, k);
    const int o = offset(i, j, k);
    if (!Blend) {
      if (on.u) carried.u = rhs_u[o];
      if (on.v) carried.v = rhs_v[o];
      if (on.w) carried.w = rhs_w[o];
      return carried;
    }
    if (b != 0) {
      if (on.u) carried.u = b * rhs_u[o];
      if (on.v) carried.v = b * rhs_v[o];
      if (on.w) carried.w = b * rhs_w[o];
    }
    if (on.u) carried.u += c * start_u[o];
    if (on.v) carried.v += c * start_v[o];
    if (on.w) carried.w += c * start_w[o];
    return carried;
  }

  template <class Flux, bool Blend, bool LoadsOnce = false, class F>
  KOKKOS_INLINE_FUNCTION void operator()(const F& u, const F& v, const F& w, int si, int sj, int sk, int i, int j,
                                         int k, const Carried& carried) const {
    if (row_ends.is_image(i)) return;  // the other end of the row writes it
    const Advanced on = advanced(i, j, k);
    Real now_u = 0, now_v = 0, now_w = 0;
    // A scheme that shares the edges' fluxes evaluates the three tendencies at once, each edge two components share
    // computed once, which takes fewer loads and fp64 instructions a point than component by component (`LoadsOnce`:
    // each neighbour loaded once).
    if constexpr (!Flux::shares_edges) {
      if (on.u) now_u = momentum_tendency<0, Flux>(u, v, w, si, sj, sk, inv, three_d, nu);
      if (on.v) now_v = momentum_tendency<1, Flux>(u, v, w, si, sj, sk, inv, three_d, nu);
      if (on.w) now_w = momentum_tendency<2, Flux>(u, v, w, si, sj, sk, inv, three_d, nu);
    } else if (on.u || on.v || on.w) {  // an owned point: its every neighbour lies in the view
      const FaceTerms now =
          momentum_tendencies<Flux, ViscousTerm::tested, LoadsOnce>(u, v, w, si, sj, sk, inv, three_d, nu);
      if (on.u) now_u = now.u;
      if (on.v) now_v = now.v;
      if (on.w) now_w = now.w;
    }
    const Real u_here = u(si, sj, sk), v_here = v(si, sj, sk), w_here = three_d ? w(si, sj, sk) : 0;
    const int o = offset(i, j, k);
    Real new_u, new_v, new_w = 0;
    if (Blend) {
      new_u = (on.u ? kept : 1) * u_here + (a * now_u + carried.u);
      new_v = (on.v ? kept : 1) * v_here + (a * now_v + carried.v);
      if (three_d) new_w = (on.w ? kept : 1) * w_here + (a * now_w + carried.w);
    } else {
      new_u = u_here + (a * now_u + b * carried.u);
      new_v = v_here + (a * now_v + b * carried.v);
      if (three_d) new_w = w_here + (a * now_w + b * carried.w);
    }
    const auto store = [&](int d) {
      next_u[o + d] = new_u;
      next_v[o + d] = new_v;
      if (three_d) next_w[o + d] = new_w;
    };
    store(0);
    const int image = row_ends.image_offset(i);
    if (image != 0) store(image);
    if (keep) {
      if (on.u) rhs_u[o] = now_u;
      if (on.v) rhs_v[o] = now_v;
      if (on.w) rhs_w[o] = now_w;
    }
  }
};

// The points a stage writes: the whole view but the rows' padding, which no stencil reads.
inline Int3 view_extent(const StaggeredGrid& grid) {
  return {grid.shape.extent(0) - grid.shape.row_padding, grid.shape.extent(1), grid.shape.extent(2)};
}

// Calls `run` with the advection scheme's flux type and whether the stage blends in u_0 (a std::bool_constant), so
// that every form is its own kernel.
template <class Run>
void with_stage_form(config::AdvectionScheme scheme, const StageWeights& weights, const Run& run) {
  with_advection_scheme(scheme, [&](auto flux) {
    if (weights.start != 0) return run(flux, std::true_type{});
    run(flux, std::false_type{});
  });
}

}  // namespace eddy::operators
