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
/// a column of aligned cell pairs up z (grid/pair_columns.hpp); requires grid::fits_cell_pairs. apply_laplacian and
/// residual take it on GPUs wherever it fits (grid::use_cell_pairs).
void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w);

/// A tile of the staged-plane loop: `x` cells (even) by `y` rows of a plane per team, `planes` planes per team (0:
/// chosen from the grid), a ring of `ring` planes in team scratch (three read, the others in flight), at least
/// `min_teams` teams resident per GPU multiprocessor (0: as the registers allow).
struct PlaneTiling {
  int x = 64, y = 8, planes = 16, ring = 6, min_teams = 0;
};

/// The tilings `laplacian_by_tiles` accepts (for `eddy bench stencil`); the first is its default.
inline constexpr PlaneTiling laplacian_tilings[] = {{64, 8, 16, 6, 0}, {64, 8, 0, 6, 0},  {64, 8, 32, 6, 0},
                                                    {64, 8, 8, 6, 0},  {64, 8, 16, 5, 0}, {64, 8, 8, 5, 0},
                                                    {64, 8, 16, 4, 0}, {64, 8, 8, 4, 0},  {128, 4, 16, 6, 5}};

/// out = L(phi), or out = rhs - L(phi) where `rhs` is allocated, on the owned cells of a 3D `shape` by tiles of planes
/// of `phi` copied once into a ring in team scratch (asynchronously on GPUs that can) and marched up z; requires
/// grid::fits_cell_pairs; `tiling` must be one of `laplacian_tilings`.
void laplacian_by_tiles(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w,
                        PlaneTiling tiling = {});

/// out = L(phi) on the owned cells of `shape`; the ghosts of `phi` must be valid (halo exchange + pressure ghosts).
void apply_laplacian(Field out, Field phi, const fields::LocalShape& shape, const Real3& spacing, int dimensions);

}  // namespace eddy::solver
