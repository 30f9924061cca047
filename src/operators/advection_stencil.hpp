#pragma once
// Advection -div(u_j u_i) of each velocity component at its own face, in the divergence form of Harlow and Welch
// (1965): the flux of component i across the cell around its face is (advecting velocity averaged to the flux
// location) x (component i at that location). Flux locations: cell centres for the normal direction, edges for the
// two others.
//   central: the advected component is the two-point average. For a discretely divergence-free field on a periodic
//            domain the sum of the advection terms weighted by the face values vanishes, so kinetic energy is
//            conserved (second order, no numerical dissipation).
//   upwind:  the advected component is taken from the upwind side of the flux location (first order, dissipative):
//            the robust option for coarse grids and high Reynolds numbers.
#include "config/deck.hpp"
#include "operators/interpolation.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// The fluxes across an edge where two components meet, component a with values a_low, a_high on the edge's two sides
/// and component b with b_low, b_high: a advected by b's average at the edge, and b by a's.
struct EdgeFluxes {
  Real of_a, of_b;
};

/// Central fluxes: the advected value is the two-point average.
struct CentralFlux {
  /// The velocity stage evaluates the three components' tendencies at once, sharing the edges' fluxes.
  static constexpr bool shares_edges = true;
  /// Flux of a value advected by `a` between two neighbouring values (`low` below, `high` above the location).
  KOKKOS_INLINE_FUNCTION static Real flux(Real a, Real low, Real high) { return a * Real(0.5) * (low + high); }
  /// Both fluxes are the product of the two averages, computed once: bit for bit what `flux` gives for each, since
  /// halving is exact.
  KOKKOS_INLINE_FUNCTION static EdgeFluxes edge(Real a_low, Real a_high, Real b_low, Real b_high) {
    const Real a = Real(0.5) * (a_low + a_high), b = Real(0.5) * (b_low + b_high);
    return {a * b, a * b};
  }
};

/// Upwind fluxes: the advected value is taken from the upwind side of the flux location.
struct UpwindFlux {
  /// Sharing only the edges' averages, the stage's all-at-once form spilled registers on GPUs: it keeps a tendency per
  /// component (tests/perf/RESULTS.md).
  static constexpr bool shares_edges = false;
  /// Flux of a value advected by `a` between two neighbouring values (`low` below, `high` above the location).
  KOKKOS_INLINE_FUNCTION static Real flux(Real a, Real low, Real high) { return a * (a > 0 ? low : high); }
  /// Each component advected by the other's average at the edge.
  KOKKOS_INLINE_FUNCTION static EdgeFluxes edge(Real a_low, Real a_high, Real b_low, Real b_high) {
    const Real a = Real(0.5) * (a_low + a_high), b = Real(0.5) * (b_low + b_high);
    return {flux(b, a_low, a_high), flux(a, b_low, b_high)};
  }
};

/// Calls `run` with the flux type of the deck's scheme: every kernel that advects (momentum and scalars) is compiled
/// once per scheme through this one switch.
template <class Run>
void with_advection_scheme(config::AdvectionScheme scheme, const Run& run) {
  switch (scheme) {
    case config::AdvectionScheme::upwind:
      return run(UpwindFlux{});
    case config::AdvectionScheme::central:
      return run(CentralFlux{});
  }
}

/// One term of the momentum equation for each component at its own face of a view point (w's 0 in 2D).
struct FaceTerms {
  Real u = 0, v = 0, w = 0;
};

/// -div(u u) of u at the x-face (i, j, k).
template <class Flux, class F>
KOKKOS_INLINE_FUNCTION Real advection_u(const F& u, const F& v, const F& w, int i, int j, int k,
                                        const InverseSpacing& inv, bool three_d) {
  const Real flux_x_high = Flux::flux(interp_u_to_center(u, i + 1, j, k), u(i, j, k), u(i + 1, j, k));
  const Real flux_x_low = Flux::flux(interp_u_to_center(u, i, j, k), u(i - 1, j, k), u(i, j, k));
  const Real flux_y_high = Flux::flux(interp_v_to_xy_edge(v, i, j, k), u(i, j, k), u(i, j + 1, k));
  const Real flux_y_low = Flux::flux(interp_v_to_xy_edge(v, i, j - 1, k), u(i, j - 1, k), u(i, j, k));
  Real result = (flux_x_high - flux_x_low) * inv.x + (flux_y_high - flux_y_low) * inv.y;
  if (three_d) {
    const Real flux_z_high = Flux::flux(interp_w_to_xz_edge(w, i, j, k), u(i, j, k), u(i, j, k + 1));
    const Real flux_z_low = Flux::flux(interp_w_to_xz_edge(w, i, j, k - 1), u(i, j, k - 1), u(i, j, k));
    result += (flux_z_high - flux_z_low) * inv.z;
  }
  return -result;
}

/// -div(u v) of v at the y-face (i, j, k).
template <class Flux, class F>
KOKKOS_INLINE_FUNCTION Real advection_v(const F& u, const F& v, const F& w, int i, int j, int k,
                                        const InverseSpacing& inv, bool three_d) {
  const Real flux_x_high = Flux::flux(interp_u_to_xy_edge(u, i, j, k), v(i, j, k), v(i + 1, j, k));
  const Real flux_x_low = Flux::flux(interp_u_to_xy_edge(u, i - 1, j, k), v(i - 1, j, k), v(i, j, k));
  const Real flux_y_high = Flux::flux(interp_v_to_center(v, i, j + 1, k), v(i, j, k), v(i, j + 1, k));
  const Real flux_y_low = Flux::flux(interp_v_to_center(v, i, j, k), v(i, j - 1, k), v(i, j, k));
  Real result = (flux_x_high - flux_x_low) * inv.x + (flux_y_high - flux_y_low) * inv.y;
  if (three_d) {
    const Real flux_z_high = Flux::flux(interp_w_to_yz_edge(w, i, j, k), v(i, j, k), v(i, j, k + 1));
    const Real flux_z_low = Flux::flux(interp_w_to_yz_edge(w, i, j, k - 1), v(i, j, k - 1), v(i, j, k));
    result += (flux_z_high - flux_z_low) * inv.z;
  }
  return -result;
}

/// -div(u w) of w at the z-face (i, j, k) (3D only).
template <class Flux, class F>
KOKKOS_INLINE_FUNCTION Real advection_w(const F& u, const F& v, const F& w, int i, int j, int k,
                                        const InverseSpacing& inv) {
  const Real flux_x_high = Flux::flux(interp_u_to_xz_edge(u, i, j, k), w(i, j, k), w(i + 1, j, k));
  const Real flux_x_low = Flux::flux(interp_u_to_xz_edge(u, i - 1, j, k), w(i - 1, j, k), w(i, j, k));
  const Real flux_y_high = Flux::flux(interp_v_to_yz_edge(v, i, j, k), w(i, j, k), w(i, j + 1, k));
  const Real flux_y_low = Flux::flux(interp_v_to_yz_edge(v, i, j - 1, k), w(i, j - 1, k), w(i, j, k));
  const Real flux_z_high = Flux::flux(interp_w_to_center(w, i, j, k + 1), w(i, j, k), w(i, j, k + 1));
  const Real flux_z_low = Flux::flux(interp_w_to_center(w, i, j, k), w(i, j, k - 1), w(i, j, k));
  return -((flux_x_high - flux_x_low) * inv.x + (flux_y_high - flux_y_low) * inv.y +
           (flux_z_high - flux_z_low) * inv.z);
}

/// The advection of every component at its face of view point (i, j, k), as advection_u, _v and _w give each: the
/// edge that two components share (xy-edge (i, j) for u and v, xz-edge (i, k) for u and w, yz-edge (j, k) for v and w)
/// has its averages, and with central fluxes its flux, computed once for both.
template <class Flux, class F>
KOKKOS_INLINE_FUNCTION FaceTerms advection_of_all(const F& u, const F& v, const F& w, int i, int j, int k,
                                                  const InverseSpacing& inv, bool three_d) {
  const EdgeFluxes xy = Flux::edge(u(i, j, k), u(i, j + 1, k), v(i, j, k), v(i + 1, j, k));
  const Real u_y_low = Flux::edge(u(i, j - 1, k), u(i, j, k), v(i, j - 1, k), v(i + 1, j - 1, k)).of_a;
  const Real v_x_low = Flux::edge(u(i - 1, j, k), u(i - 1, j + 1, k), v(i - 1, j, k), v(i, j, k)).of_b;
  const Real u_x_high = Flux::flux(interp_u_to_center(u, i + 1, j, k), u(i, j, k), u(i + 1, j, k));
  const Real u_x_low = Flux::flux(interp_u_to_center(u, i, j, k), u(i - 1, j, k), u(i, j, k));
  const Real v_y_high = Flux::flux(interp_v_to_center(v, i, j + 1, k), v(i, j, k), v(i, j + 1, k));
  const Real v_y_low = Flux::flux(interp_v_to_center(v, i, j, k), v(i, j - 1, k), v(i, j, k));
  Real du = (u_x_high - u_x_low) * inv.x + (xy.of_a - u_y_low) * inv.y;
  Real dv = (xy.of_b - v_x_low) * inv.x + (v_y_high - v_y_low) * inv.y;
  FaceTerms advection;
  if (three_d) {
    const EdgeFluxes xz = Flux::edge(u(i, j, k), u(i, j, k + 1), w(i, j, k), w(i + 1, j, k));
    const Real u_z_low = Flux::edge(u(i, j, k - 1), u(i, j, k), w(i, j, k - 1), w(i + 1, j, k - 1)).of_a;
    const Real w_x_low = Flux::edge(u(i - 1, j, k), u(i - 1, j, k + 1), w(i - 1, j, k), w(i, j, k)).of_b;
    const EdgeFluxes yz = Flux::edge(v(i, j, k), v(i, j, k + 1), w(i, j, k), w(i, j + 1, k));
    const Real v_z_low = Flux::edge(v(i, j, k - 1), v(i, j, k), w(i, j, k - 1), w(i, j + 1, k - 1)).of_a;
    const Real w_y_low = Flux::edge(v(i, j - 1, k), v(i, j - 1, k + 1), w(i, j - 1, k), w(i, j, k)).of_b;
    const Real w_z_high = Flux::flux(interp_w_to_center(w, i, j, k + 1), w(i, j, k), w(i, j, k + 1));
    const Real w_z_low = Flux::flux(interp_w_to_center(w, i, j, k), w(i, j, k - 1), w(i, j, k));
    du += (xz.of_a - u_z_low) * inv.z;
    dv += (yz.of_a - v_z_low) * inv.z;
    advection.w = -((xz.of_b - w_x_low) * inv.x + (yz.of_b - w_y_low) * inv.y + (w_z_high - w_z_low) * inv.z);
  }
  advection.u = -du;
  advection.v = -dv;
  return advection;
}

}  // namespace eddy::operators
