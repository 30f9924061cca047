#pragma once
// The discrete divergence of the face velocities at a cell centre: the sum of the net face fluxes per unit volume.
#include "operators/difference.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// div(u, v, w) at the centre of cell (i, j, k); w is ignored in 2D.
KOKKOS_INLINE_FUNCTION Real divergence_at_center(const Field& u, const Field& v, const Field& w, int i, int j, int k,
                                                 const InverseSpacing& inv, bool three_d) {
  Real div = ddx_face_to_center(u, i, j, k, inv.x) + ddy_face_to_center(v, i, j, k, inv.y);
  if (three_d) div += ddz_face_to_center(w, i, j, k, inv.z);
  return div;
}

}  // namespace eddy::operators
