#pragma once
// The kernels of the Poisson solvers: residuals, smoothers, grid transfers and the fused Krylov updates. Every
// kernel works on the owned cells of one level; stencils read first-layer ghosts, which the caller keeps valid.
// Scalars that feed later kernels (dot products, CG step lengths) stay in device Buffers, so with NCCL the
// iteration never waits on the host.
#include "parallel/reducer.hpp"
#include "solver/poisson_level.hpp"

#include <array>
#include <initializer_list>

namespace eddy::solver {

/// N sums carried through one parallel_reduce.
template <int N>
struct Sums {
  Real value[N];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (int n = 0; n < N; ++n) value[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& other) {
    for (int n = 0; n < N; ++n) value[n] += other.value[n];
    return *this;
  }
};

/// Copies the first N entries of a device Buffer to the host (waits for the device).
template <int N>
std::array<Real, N> read_sums(Buffer values) {
  std::array<Real, N> host{};
  Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> out(host.data(), N);
  Kokkos::deep_copy(out, Kokkos::subview(values, Kokkos::make_pair(0, N)));
  return host;
}

/// Sum of `f` over the owned cells of all ranks (host result).
Real global_sum(Field f, const PoissonLevel& level, const parallel::Reducer& reducer);
/// Subtracts `value` from every point of `f`, ghosts included.
void subtract_constant(Field f, Real value);
/// r = b - shift - L(x) on the owned cells; sums = global {|r|^2, |b - shift|^2}.
void residual_with_norms(Field r, Field x, Field b, Real shift, const PoissonLevel& level, Buffer sums,
                         const parallel::Reducer& reducer);
/// The sums a stationary solver checks convergence with: {|b - L(x)|^2, |b|^2, sum of x}.
using ResidualSums = Sums<3>;
/// sums = ResidualSums of (x, b) over all ranks, the residual not stored.
void residual_sums(Field x, Field b, const PoissonLevel& level, Buffer sums, const parallel::Reducer& reducer);
/// r = b - L(x) on the owned cells.
void residual(Field r, Field x, Field b, const PoissonLevel& level);

/// x += weight * r / diagonal (weighted Jacobi from a stored residual).
void jacobi_correct(Field x, Field r, const PoissonLevel& level, Real weight);
/// d = previous * d + residual * r / diagonal, then x += d (one Chebyshev sweep from a stored residual).
void chebyshev_correct(Field x, Field d, Field r, const PoissonLevel& level, Real previous, Real residual);

/// coarse_b = average over the children of each coarse cell of the fine residual b - L(x) (fused, r not stored).
void restrict_residual(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                       const Int3& factor);
/// Shares of the ResidualSums of a level, one per coarse cell or per coarse column (restrict_residual_with_sums).
using CheckPartials = Kokkos::View<ResidualSums*, MemSpace>;
/// restrict_residual (none without `coarse_b`: the sums only), and sums = ResidualSums of (x, b) on the fine level over
/// all ranks. The restriction's pass also stores shares of the sums in `partials` (one per coarse owned cell; one per
/// coarse column on GPUs, where restrict_residual_by_columns does the pass) and a short second pass adds them: on an
/// H200 0.81 + 0.10 ms at 512^3 by coarse cells against 1.32 for the same work as one Kokkos team reduction.
void restrict_residual_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                 const Int3& factor, CheckPartials partials, Buffer sums,
                                 const parallel::Reducer& reducer);
/// How many partial sums restrict_residual_with_sums takes for (x, b) on these levels: one per coarse owned cell, or
/// one per coarse column where the column form does the pass.
long long check_partial_count(Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor);
/// restrict_residual with one thread per coarse cell (any factors; the CPU form).
void restrict_residual_by_cells(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor);
/// Whether restrict_residual_by_columns can restrict from `fine` by `factor` with `fields` (unallocated ones skipped).
bool fits_restriction_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields);
/// fits_restriction_columns on GPU builds, where the column form is the faster one; false on CPUs.
bool use_restriction_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields);
/// restrict_residual by two along every axis, one thread per coarse column of up to grid::column_planes cells marching
/// up z with the fine planes its children share in registers; with `partials` allocated also each column's
/// ResidualSums share, restriction_column_count(coarse) of them (the first pass of restrict_residual_with_sums), and
/// then without `coarse_b` only those. Any backend; requires fits_restriction_columns.
void restrict_residual_by_columns(Field coarse_b, Field x, Field b, const PoissonLevel& fine,
                                  const PoissonLevel& coarse, CheckPartials partials);
/// The number of columns (and of partial sums) restrict_residual_by_columns takes to fill `coarse`.
long long restriction_column_count(const PoissonLevel& coarse);
/// x += linear interpolation of the coarse correction (coarse ghosts valid, edges and corners included).
void prolong_add(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, const Int3& factor);
/// prolong_add on the ghosts of the faces that mirror owned cells (of a neighbour rank or a periodic wrap), from the
/// coarse ghosts: the fine ghosts valid before stay so after, as an exchange would leave them, up to rounding.
void prolong_add_to_face_ghosts(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor);
/// prolong_add by columns of aligned cell pairs marching up z (grid/pair_columns.hpp), each coarse plane interpolated
/// in x and y once per column, with `two_rows` two rows per thread where y is coarsened by two and the rows pair up:
/// the GPU form for 3D levels coarsened by two along x and z, on any backend.
void prolong_add_by_columns(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse,
                            const Int3& factor, bool two_rows = true);
/// prolong_add where x is coarsened by two, one thread per pair of fine cells of a coarse parent (along y and z by
/// factors fy and fz): the GPU form where the column form does not apply (2D, or z not coarsened).
void prolong_add_by_parent_pairs(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, int fy,
                                 int fz);

/// q = L(p) and pq[0] = p . q, reduced over ranks.
void apply_and_dot(Field q, Field p, const PoissonLevel& level, Buffer pq, const parallel::Reducer& reducer);
/// alpha = current[0] / pq[0]; x += alpha p, r -= alpha q. With `fuse_norm`, next[0] = r . r (reduced).
void cg_step(Field x, Field r, Field p, Field q, Buffer current, Buffer pq, Buffer next, bool fuse_norm,
             const PoissonLevel& level, const parallel::Reducer& reducer);
/// next = {r . z, r . r, q . z} over all ranks.
void preconditioned_dots(Field r, Field z, Field q, Buffer next, const PoissonLevel& level,
                         const parallel::Reducer& reducer);
/// p = z + beta p: beta = next[0] / current[0], or with `flexible` the Polak-Ribiere form -alpha next[2] / current[0].
void cg_direction(Field p, Field z, Buffer current, Buffer next, Buffer pq, bool flexible, const PoissonLevel& level);

}  // namespace eddy::solver

namespace Kokkos {
template <int N>
struct reduction_identity<eddy::solver::Sums<N>> {
  KOKKOS_FORCEINLINE_FUNCTION static eddy::solver::Sums<N> sum() { return eddy::solver::Sums<N>(); }
};
}  // namespace Kokkos
