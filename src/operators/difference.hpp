#pragma once
// First differences between neighbouring staggered locations. Index convention of fields/field.hpp: the x-face with
// index i lies on the high side of cell i, so a centre-to-face difference looks forward and a face-to-centre
// difference looks backward. Fields are read as f(i, j, k): a view or a fields::FlatField.
#include "core/types.hpp"

namespace eddy::operators {

/// d/dx of a cell-centred field at the x-face (i + 1/2).
template <class F>
KOKKOS_INLINE_FUNCTION Real ddx_center_to_face(const F& f, int i, int j, int k, Real inv_dx) {
  return (f(i + 1, j, k) - f(i, j, k)) * inv_dx;
}
/// d/dy of a cell-centred field at the y-face (j + 1/2).
template <class F>
KOKKOS_INLINE_FUNCTION Real ddy_center_to_face(const F& f, int i, int j, int k, Real inv_dy) {
  return (f(i, j + 1, k) - f(i, j, k)) * inv_dy;
}
/// d/dz of a cell-centred field at the z-face (k + 1/2).
template <class F>
KOKKOS_INLINE_FUNCTION Real ddz_center_to_face(const F& f, int i, int j, int k, Real inv_dz) {
  return (f(i, j, k + 1) - f(i, j, k)) * inv_dz;
}

/// d/dx of an x-face field at the centre of cell i.
template <class F>
KOKKOS_INLINE_FUNCTION Real ddx_face_to_center(const F& u, int i, int j, int k, Real inv_dx) {
  return (u(i, j, k) - u(i - 1, j, k)) * inv_dx;
}
/// d/dy of a y-face field at the centre of cell j.
template <class F>
KOKKOS_INLINE_FUNCTION Real ddy_face_to_center(const F& v, int i, int j, int k, Real inv_dy) {
  return (v(i, j, k) - v(i, j - 1, k)) * inv_dy;
}
/// d/dz of a z-face field at the centre of cell k.
template <class F>
KOKKOS_INLINE_FUNCTION Real ddz_face_to_center(const F& w, int i, int j, int k, Real inv_dz) {
  return (w(i, j, k) - w(i, j, k - 1)) * inv_dz;
}

}  // namespace eddy::operators
