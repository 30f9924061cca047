#pragma once
// The cell-centred 5-point (2D) / 7-point (3D) Laplacian as a tiny inline stencil, shared by every Poisson kernel,
// and a whole-field apply for the flow solver and the tests.
#include "fields/field.hpp"

namespace eddy::solver {

/// 1 / h^2 per axis; z is zero in 2D, where the z term of the stencil vanishes.
struct StencilWeights {
  Real x = 0, y = 0, z = 0;
  /// The (negative) diagonal entry of the stencil.
  KOKKOS_INLINE_FUNCTION Real diagonal() const { return -2 * (x + y + z); }
};

/// The stencil weights for a spacing; in 2D (`dimensions` == 2) the z weight is zero.
inline StencilWeights stencil_weights(const Real3& spacing, int dimensions) {
  return {1 / (spacing[0] * spacing[0]), 1 / (spacing[1] * spacing[1]),
          dimensions == 2 ? Real(0) : 1 / (spacing[2] * spacing[2])};
}

/// Sum of the off-diagonal terms of the stencil at view index (i, j, k).
template <class PhiField>
KOKKOS_INLINE_FUNCTION Real laplacian_neighbours(const PhiField& phi, int i, int j, int k, const StencilWeights& w) {
  Real sum = w.x * (phi(i - 1, j, k) + phi(i + 1, j, k)) + w.y * (phi(i, j - 1, k) + phi(i, j + 1, k));
  if (w.z != 0) sum += w.z * (phi(i, j, k - 1) + phi(i, j, k + 1));
  return sum;
}

/// The discrete Laplacian of a cell-centred field at view index (i, j, k); the ghosts of `phi` must be valid.
template <class PhiField>
KOKKOS_INLINE_FUNCTION Real laplacian_at(const PhiField& phi, int i, int j, int k, const StencilWeights& w) {
  return laplacian_neighbours(phi, i, j, k, w) + w.diagonal() * phi(i, j, k);
}

/// out = L(phi), or out = rhs - L(phi) where `rhs` is allocated, on the owned cells of `shape`, each thread marching
/// a column of aligned cell pairs up z (grid/pair_columns.hpp), in 3D of two rows where the row count is even;
/// requires grid::fits_cell_pairs. apply_laplacian and residual take it on GPUs wherever it fits
/// (grid::use_cell_pairs).
void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w);

/// out = L(phi) on the owned cells of `shape`; the ghosts of `phi` must be valid (halo exchange + pressure ghosts).
void apply_laplacian(Field out, Field phi, const fields::LocalShape& shape, const Real3& spacing, int dimensions);

}  // namespace eddy::solver
