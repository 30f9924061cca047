#pragma once
// The second-order central Laplacian on a uniform grid. The stencil is the same at centres and at faces, because
// each field is uniformly spaced along every axis at its own location.
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// 5-point (2D, `three_d` false) or 7-point Laplacian of `f` at (i, j, k).
template <class F>
KOKKOS_INLINE_FUNCTION Real laplacian(const F& f, int i, int j, int k, const InverseSpacing& inv, bool three_d) {
  const Real c = f(i, j, k);
  Real result = (f(i + 1, j, k) - 2 * c + f(i - 1, j, k)) * inv.x2 + (f(i, j + 1, k) - 2 * c + f(i, j - 1, k)) * inv.y2;
  if (three_d) result += (f(i, j, k + 1) - 2 * c + f(i, j, k - 1)) * inv.z2;
  return result;
}

}  // namespace eddy::operators
