#pragma once
// Advection-diffusion of a cell-centred scalar c in conservative flux form: -div(u c) + kappa Laplacian(c).
// The advective flux through each face is the face velocity times c at the face: the two-point average (central,
// second order) or the upwind cell value (first order, bounded), the same choice as the momentum advection.
#include "operators/advection_stencil.hpp"
#include "operators/laplacian.hpp"

namespace eddy::physics {

/// -div(u c) at the centre of cell (i, j, k); velocity and scalar ghosts must be valid.
template <class Flux>
KOKKOS_INLINE_FUNCTION Real scalar_advection(const Field& c, const Field& u, const Field& v, const Field& w, int i,
                                             int j, int k, const operators::InverseSpacing& inv, bool three_d) {
  const Real flux_x_high = Flux::flux(u(i, j, k), c(i, j, k), c(i + 1, j, k));
  const Real flux_x_low = Flux::flux(u(i - 1, j, k), c(i - 1, j, k), c(i, j, k));
  const Real flux_y_high = Flux::flux(v(i, j, k), c(i, j, k), c(i, j + 1, k));
  const Real flux_y_low = Flux::flux(v(i, j - 1, k), c(i, j - 1, k), c(i, j, k));
  Real result = (flux_x_high - flux_x_low) * inv.x + (flux_y_high - flux_y_low) * inv.y;
  if (three_d) {
    const Real flux_z_high = Flux::flux(w(i, j, k), c(i, j, k), c(i, j, k + 1));
    const Real flux_z_low = Flux::flux(w(i, j, k - 1), c(i, j, k - 1), c(i, j, k));
    result += (flux_z_high - flux_z_low) * inv.z;
  }
  return -result;
}

}  // namespace eddy::physics
