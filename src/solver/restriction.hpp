#pragma once
// Restriction of the residual to the next coarser level: each coarse right-hand side value is the average over the
// children of a coarse cell of the fine residual b - L(x), fused so that the residual is never stored. Two forms with
// the same arithmetic per child: by coarse cells (any factors, any backend) and, on GPUs, by coarse columns marching
// up z with the fine planes their children share kept in registers (3D levels coarsened by two along every axis).
// Either can also leave shares of the convergence check's sums for a short second pass to add.
#include "solver/level_sums.hpp"

#include <initializer_list>

namespace eddy::solver {

/// coarse_b = average over the children of each coarse cell of the fine residual b - L(x) (fused, r not stored).
void restrict_residual(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                       const Int3& factor);

/// Shares of the ResidualSums of a level, one per coarse cell or per coarse column (restrict_residual_with_sums).
using CheckPartials = Kokkos::View<ResidualSums*, MemSpace>;

/// restrict_residual (none without `coarse_b`: the sums only), and sums = ResidualSums of (x, b) on the fine level over
/// all ranks. The restriction's pass also stores shares of the sums in `partials` (one per coarse owned cell; one per
/// coarse column where the column form does the pass) and a short second pass adds them: less work in flight at the
/// end than one team reduction over the level.
void restrict_residual_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                 const Int3& factor, CheckPartials partials, Buffer sums,
                                 const parallel::Reducer& reducer);

/// How many partial sums restrict_residual_with_sums takes for (x, b) on these levels: one per coarse owned cell, or
/// one per coarse column where the column form does the pass.
long long check_partial_count(Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor);

/// restrict_residual with one thread per coarse cell: the portable form (any factors, any backend).
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

}  // namespace eddy::solver
