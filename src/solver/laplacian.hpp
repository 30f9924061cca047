#pragma once
// The cell-centred 5-point (2D) / 7-point (3D) Laplacian: its stencil as tiny inline functions shared by every Poisson
// kernel, and the residual r = b - L(x) on the owned cells of a level. The residual has two forms with the same
// arithmetic per cell: by cells (any backend, any block) and, on GPUs where it fits, by columns of cell pairs two rows
// at a time (laplacian_by_pairs), whose threads share their neighbours' loads.
#include "fields/field.hpp"

#include <initializer_list>

namespace eddy::parallel {
class Reducer;
}  // namespace eddy::parallel

namespace eddy::solver {

struct PoissonLevel;

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

/// r = b - L(x) on the owned cells: by pairs on GPUs wherever fits_laplacian_pairs holds, else by cells.
void residual(Field r, Field x, Field b, const PoissonLevel& level);

/// r = b - shift - L(x) on the owned cells; sums = global {|r|^2, |b - shift|^2}.
void residual_with_norms(Field r, Field x, Field b, Real shift, const PoissonLevel& level, Buffer sums,
                         const parallel::Reducer& reducer);

/// sums = ResidualSums of (x, b) over all ranks (solver/level_sums.hpp), the residual not stored.
void residual_sums(Field x, Field b, const PoissonLevel& level, Buffer sums, const parallel::Reducer& reducer);

/// Whether laplacian_by_pairs takes `fields` (unallocated ones skipped) on `shape`: a 3D stencil, an even number of
/// rows, and rows of aligned pairs (grid::fits_cell_pairs).
bool fits_laplacian_pairs(const fields::LocalShape& shape, const StencilWeights& w,
                          std::initializer_list<Field> fields);

/// out = rhs - L(phi), or L(phi) where `rhs` is unallocated, on the owned cells of `shape`, each thread marching two
/// rows of aligned cell pairs up z (grid/pair_columns.hpp); ghosts of `out` are left alone. Any backend; requires
/// fits_laplacian_pairs.
void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w);

}  // namespace eddy::solver
