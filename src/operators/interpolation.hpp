#pragma once
// Two-point averages between staggered locations. Edges are named by the two face families they join: the xy-edge
// (i, j) sits at (x_{i+1/2}, y_{j+1/2}) and the centre of cell k in z; likewise xz- and yz-edges. A field is anything
// read as f(i, j, k): a view or a fields::FlatField.
#include "core/types.hpp"

namespace eddy::operators {

/// u at the centre of cell i (average of its low and high x-faces).
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_u_to_center(const F& u, int i, int j, int k) {
  return Real(0.5) * (u(i - 1, j, k) + u(i, j, k));
}
/// v at the centre of cell j.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_v_to_center(const F& v, int i, int j, int k) {
  return Real(0.5) * (v(i, j - 1, k) + v(i, j, k));
}
/// w at the centre of cell k.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_w_to_center(const F& w, int i, int j, int k) {
  return Real(0.5) * (w(i, j, k - 1) + w(i, j, k));
}

/// u at the xy-edge (i, j): average in y.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_u_to_xy_edge(const F& u, int i, int j, int k) {
  return Real(0.5) * (u(i, j, k) + u(i, j + 1, k));
}
/// v at the xy-edge (i, j): average in x.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_v_to_xy_edge(const F& v, int i, int j, int k) {
  return Real(0.5) * (v(i, j, k) + v(i + 1, j, k));
}
/// u at the xz-edge (i, k): average in z.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_u_to_xz_edge(const F& u, int i, int j, int k) {
  return Real(0.5) * (u(i, j, k) + u(i, j, k + 1));
}
/// w at the xz-edge (i, k): average in x.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_w_to_xz_edge(const F& w, int i, int j, int k) {
  return Real(0.5) * (w(i, j, k) + w(i + 1, j, k));
}
/// v at the yz-edge (j, k): average in z.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_v_to_yz_edge(const F& v, int i, int j, int k) {
  return Real(0.5) * (v(i, j, k) + v(i, j, k + 1));
}
/// w at the yz-edge (j, k): average in y.
template <class F>
KOKKOS_INLINE_FUNCTION Real interp_w_to_yz_edge(const F& w, int i, int j, int k) {
  return Real(0.5) * (w(i, j, k) + w(i, j + 1, k));
}

}  // namespace eddy::operators
