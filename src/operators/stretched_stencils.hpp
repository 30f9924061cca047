#pragma once
// The second-order staggered stencils on a stretched grid, where every axis has its own cell widths
// (grid/axis_metric.hpp): the one home of the non-uniform numerics. Each momentum component is advanced over the
// control volume around its face, which spans half of each of the two cells beside it. Following Verstappen and
// Veldman (2003), the flux through a face of that volume is the mass flux through the two half cell faces it covers
// (area-weighted) times the two-point average of the advected component: the advection stays skew-symmetric, so
// with central fluxes a divergence-free flow conserves kinetic energy on any grid, as on the uniform one. On a
// uniform grid every stencil here reduces to the uniform one (operators/advection_stencil.hpp, laplacian.hpp).
#include "grid/axis_metric.hpp"
#include "operators/advection_stencil.hpp"

namespace eddy::operators {

/// The mass-flux weighted average across face i of an axis of two values at the centres of cells i and i + 1.
KOKKOS_INLINE_FUNCTION Real across_face(Real here, Real next, const grid::AxisMetric& m, int i) {
  return Real(0.5) * (m.width(i) * here + m.width(i + 1) * next) * m.inv_gap(i);
}

/// Tendency -div(u u_i) + nu Laplacian(u_i) of component `Axis` (0: u, 1: v, 2: w, 3D only) at its face (i, j, k).
template <int Axis, class Flux, class F>
KOKKOS_INLINE_FUNCTION Real stretched_tendency(const F& u, const F& v, const F& w, int i, int j, int k,
                                               const grid::GridMetric& m, bool three_d, Real nu) {
  Real adv = 0, diff = 0;
  if constexpr (Axis == 0) {
    const Real hx = Flux::flux(Real(0.5) * (u(i, j, k) + u(i + 1, j, k)), u(i, j, k), u(i + 1, j, k));
    const Real lx = Flux::flux(Real(0.5) * (u(i - 1, j, k) + u(i, j, k)), u(i - 1, j, k), u(i, j, k));
    const Real hy = Flux::flux(across_face(v(i, j, k), v(i + 1, j, k), m.x, i), u(i, j, k), u(i, j + 1, k));
    const Real ly = Flux::flux(across_face(v(i, j - 1, k), v(i + 1, j - 1, k), m.x, i), u(i, j - 1, k), u(i, j, k));
    adv = (hx - lx) * m.x.inv_gap(i) + (hy - ly) * m.y.inv_width(j);
    diff = grid::second_difference_at_face(u(i - 1, j, k), u(i, j, k), u(i + 1, j, k), m.x, i) +
           grid::second_difference_at_centre(u(i, j - 1, k), u(i, j, k), u(i, j + 1, k), m.y, j);
    if (three_d) {
      const Real hz = Flux::flux(across_face(w(i, j, k), w(i + 1, j, k), m.x, i), u(i, j, k), u(i, j, k + 1));
      const Real lz = Flux::flux(across_face(w(i, j, k - 1), w(i + 1, j, k - 1), m.x, i), u(i, j, k - 1), u(i, j, k));
      adv += (hz - lz) * m.z.inv_width(k);
      diff += grid::second_difference_at_centre(u(i, j, k - 1), u(i, j, k), u(i, j, k + 1), m.z, k);
    }
  } else if constexpr (Axis == 1) {
    const Real hx = Flux::flux(across_face(u(i, j, k), u(i, j + 1, k), m.y, j), v(i, j, k), v(i + 1, j, k));
    const Real lx = Flux::flux(across_face(u(i - 1, j, k), u(i - 1, j + 1, k), m.y, j), v(i - 1, j, k), v(i, j, k));
    const Real hy = Flux::flux(Real(0.5) * (v(i, j, k) + v(i, j + 1, k)), v(i, j, k), v(i, j + 1, k));
    const Real ly = Flux::flux(Real(0.5) * (v(i, j - 1, k) + v(i, j, k)), v(i, j - 1, k), v(i, j, k));
    adv = (hx - lx) * m.x.inv_width(i) + (hy - ly) * m.y.inv_gap(j);
    diff = grid::second_difference_at_centre(v(i - 1, j, k), v(i, j, k), v(i + 1, j, k), m.x, i) +
           grid::second_difference_at_face(v(i, j - 1, k), v(i, j, k), v(i, j + 1, k), m.y, j);
    if (three_d) {
      const Real hz = Flux::flux(across_face(w(i, j, k), w(i, j + 1, k), m.y, j), v(i, j, k), v(i, j, k + 1));
      const Real lz = Flux::flux(across_face(w(i, j, k - 1), w(i, j + 1, k - 1), m.y, j), v(i, j, k - 1), v(i, j, k));
      adv += (hz - lz) * m.z.inv_width(k);
      diff += grid::second_difference_at_centre(v(i, j, k - 1), v(i, j, k), v(i, j, k + 1), m.z, k);
    }
  } else {
    const Real hx = Flux::flux(across_face(u(i, j, k), u(i, j, k + 1), m.z, k), w(i, j, k), w(i + 1, j, k));
    const Real lx = Flux::flux(across_face(u(i - 1, j, k), u(i - 1, j, k + 1), m.z, k), w(i - 1, j, k), w(i, j, k));
    const Real hy = Flux::flux(across_face(v(i, j, k), v(i, j, k + 1), m.z, k), w(i, j, k), w(i, j + 1, k));
    const Real ly = Flux::flux(across_face(v(i, j - 1, k), v(i, j - 1, k + 1), m.z, k), w(i, j - 1, k), w(i, j, k));
    const Real hz = Flux::flux(Real(0.5) * (w(i, j, k) + w(i, j, k + 1)), w(i, j, k), w(i, j, k + 1));
    const Real lz = Flux::flux(Real(0.5) * (w(i, j, k - 1) + w(i, j, k)), w(i, j, k - 1), w(i, j, k));
    adv = (hx - lx) * m.x.inv_width(i) + (hy - ly) * m.y.inv_width(j) + (hz - lz) * m.z.inv_gap(k);
    diff = grid::second_difference_at_centre(w(i - 1, j, k), w(i, j, k), w(i + 1, j, k), m.x, i) +
           grid::second_difference_at_centre(w(i, j - 1, k), w(i, j, k), w(i, j + 1, k), m.y, j) +
           grid::second_difference_at_face(w(i, j, k - 1), w(i, j, k), w(i, j, k + 1), m.z, k);
  }
  return nu != 0 ? -adv + nu * diff : -adv;
}

/// div(u, v, w) at the centre of cell (i, j, k); w is ignored in 2D.
template <class F>
KOKKOS_INLINE_FUNCTION Real stretched_divergence(const F& u, const F& v, const F& w, int i, int j, int k,
                                                 const grid::GridMetric& m, bool three_d) {
  Real div = (u(i, j, k) - u(i - 1, j, k)) * m.x.inv_width(i) + (v(i, j, k) - v(i, j - 1, k)) * m.y.inv_width(j);
  if (three_d) div += (w(i, j, k) - w(i, j, k - 1)) * m.z.inv_width(k);
  return div;
}

/// -div(u c) + kappa Laplacian(c) of a cell-centred scalar at the centre of cell (i, j, k).
template <class Flux, class F>
KOKKOS_INLINE_FUNCTION Real stretched_scalar_tendency(const F& c, const F& u, const F& v, const F& w, int i, int j,
                                                      int k, const grid::GridMetric& m, bool three_d, Real kappa) {
  const Real hx = Flux::flux(u(i, j, k), c(i, j, k), c(i + 1, j, k));
  const Real lx = Flux::flux(u(i - 1, j, k), c(i - 1, j, k), c(i, j, k));
  const Real hy = Flux::flux(v(i, j, k), c(i, j, k), c(i, j + 1, k));
  const Real ly = Flux::flux(v(i, j - 1, k), c(i, j - 1, k), c(i, j, k));
  Real adv = (hx - lx) * m.x.inv_width(i) + (hy - ly) * m.y.inv_width(j);
  Real diff = grid::second_difference_at_centre(c(i - 1, j, k), c(i, j, k), c(i + 1, j, k), m.x, i) +
              grid::second_difference_at_centre(c(i, j - 1, k), c(i, j, k), c(i, j + 1, k), m.y, j);
  if (three_d) {
    const Real hz = Flux::flux(w(i, j, k), c(i, j, k), c(i, j, k + 1));
    const Real lz = Flux::flux(w(i, j, k - 1), c(i, j, k - 1), c(i, j, k));
    adv += (hz - lz) * m.z.inv_width(k);
    diff += grid::second_difference_at_centre(c(i, j, k - 1), c(i, j, k), c(i, j, k + 1), m.z, k);
  }
  return -adv + kappa * diff;
}

}  // namespace eddy::operators
