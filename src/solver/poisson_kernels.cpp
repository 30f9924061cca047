#include "solver/poisson_kernels.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "fields/shifted_copy.hpp"
#include "grid/cell_loops.hpp"
#include "grid/index_ranges.hpp"
#include "grid/pair_columns.hpp"
#include "solver/communication_scope.hpp"
#include "solver/laplacian.hpp"

namespace eddy::solver {
namespace {

template <int N>
using SumsView = Kokkos::View<Sums<N>, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// A reducer that leaves the N sums in the first entries of a device Buffer (no host wait on GPUs).
template <int N>
Kokkos::Sum<Sums<N>, MemSpace> into_buffer(Buffer values) {
  return Kokkos::Sum<Sums<N>, MemSpace>(SumsView<N>(reinterpret_cast<Sums<N>*>(values.data())));
}

// The global sum of the first `n` device values of `sums`, charged to the solver's reductions.
void reduce_sums(Buffer sums, int n, const PoissonLevel& level, const parallel::Reducer& reducer) {
  CommunicationScope scope(level.timers, Phase::poisson_reduction, reducer.blocks_host());
  reducer.allreduce(Kokkos::subview(sums, Kokkos::make_pair(0, n)), parallel::ReduceOp::sum);
}

// The global sum of a host value (the local reduction has already waited for the device).
Real reduce_sum(Real local, const PoissonLevel& level, const parallel::Reducer& reducer) {
  CommunicationScope scope(level.timers, Phase::poisson_reduction, true);
  return reducer.sum(local);
}

}  // namespace

Real global_sum(Field f, const PoissonLevel& level, const parallel::Reducer& reducer) {
  Real local = 0;
  grid::reduce_over_owned_cells(
      "poisson::sum", level.shape, KOKKOS_LAMBDA(int i, int j, int k, Real& sum) { sum += f(i, j, k); },
      Kokkos::Sum<Real>(local));
  return reduce_sum(local, level, reducer);
}

void subtract_constant(Field f, Real value) { fields::shifted_copy("poisson::subtract_constant", f, f, value); }

void residual_with_norms(Field r, Field x, Field b, Real shift, const PoissonLevel& level, Buffer sums,
                         const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::residual_norms", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<2>& s) {
        const Real rhs = b(i, j, k) - shift;
        const Real res = rhs - laplacian_at(x, i, j, k, w);
        r(i, j, k) = res;
        s.value[0] += res * res;
        s.value[1] += rhs * rhs;
      },
      into_buffer<2>(sums));
  reduce_sums(sums, 2, level, reducer);
}

void residual_sums(Field x, Field b, const PoissonLevel& level, Buffer sums, const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::residual_sums", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, ResidualSums& s) {
        const Real rhs = b(i, j, k), centre = x(i, j, k);
        const Real res = rhs - (laplacian_neighbours(x, i, j, k, w) + w.diagonal() * centre);
        s.value[0] += res * res;
        s.value[1] += rhs * rhs;
        s.value[2] += centre;
      },
      into_buffer<3>(sums));
  reduce_sums(sums, 3, level, reducer);
}

void residual(Field r, Field x, Field b, const PoissonLevel& level) {
  const auto w = level.weights();
  if (grid::use_cell_pairs(level.shape, {r, x, b})) {
    laplacian_by_pairs(r, x, b, level.shape, w);
    return;
  }
  grid::for_each_owned_cell(
      "poisson::residual", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - laplacian_at(x, i, j, k, w); });
}

void jacobi_correct(Field x, Field r, const PoissonLevel& level, Real weight) {
  const Real scale = weight / level.weights().diagonal();
  grid::for_each_owned_cell(
      "poisson::jacobi_correct", level.shape, KOKKOS_LAMBDA(int i, int j, int k) { x(i, j, k) += scale * r(i, j, k); });
}

void chebyshev_correct(Field x, Field d, Field r, const PoissonLevel& level, Real previous, Real residual) {
  const Real scale = residual / level.weights().diagonal();
  grid::for_each_owned_cell(
      "poisson::chebyshev_correct", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        const Real step = previous * d(i, j, k) + scale * r(i, j, k);
        d(i, j, k) = step;
        x(i, j, k) += step;
      });
}

void restrict_residual(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                       const Int3& factor) {
  if (use_restriction_columns(fine, factor, {x, b})) {
    return restrict_residual_by_columns(coarse_b, x, b, fine, coarse, CheckPartials());
  }
  restrict_residual_by_cells(coarse_b, x, b, fine, coarse, factor);
}

namespace {

// The coarsening factor of a restriction along one axis: Fixed where it is not 0, so that the loops over the children
// unroll (on two CPU cores the 128^3 restriction took 2.5 ms this way against 4.1-4.4 with the factors read at run
// time), else the level's.
template <int Fixed>
struct Factor {
  int value;
  KOKKOS_INLINE_FUNCTION int operator()() const { return Fixed > 0 ? Fixed : value; }
};

/// Which factors restrict_cells takes as constants: those of 3D levels (2, 2, 2) and of 2D levels (2, 2, 1).
enum class FixedFactors { none, cube, square };

FixedFactors fixed_factors(const Int3& factor) {
  if (factor == Int3{2, 2, 2}) return FixedFactors::cube;
  if (factor == Int3{2, 2, 1}) return FixedFactors::square;
  return FixedFactors::none;
}

// restrict_residual_by_cells with the factors FX, FY, FZ where they are not 0.
template <int FX, int FY, int FZ>
void restrict_cells(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                    const Int3& factor) {
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const Factor<FX> fx{factor[0]};
  const Factor<FY> fy{factor[1]};
  const Factor<FZ> fz{factor[2]};
  const Real inv_children = Real(1) / (factor[0] * factor[1] * factor[2]);
  grid::for_each_owned_cell(
      "poisson::restrict_residual", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx() * (ci - gc), j0 = gf + fy() * (cj - gc), k0 = gf + fz() * (ck - gc);
        Real sum = 0;
        for (int c = 0; c < fz(); ++c) {
          for (int b2 = 0; b2 < fy(); ++b2) {
            for (int a = 0; a < fx(); ++a) {
              const int i = i0 + a, j = j0 + b2, k = k0 + c;
              sum += b(i, j, k) - laplacian_at(x, i, j, k, w);
            }
          }
        }
        coarse_b(ci, cj, ck) = sum * inv_children;
      });
}

// The by-cells pass of restrict_residual_with_sums with the factors FX, FY, FZ where they are not 0.
template <int FX, int FY, int FZ>
void restrict_cells_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor, CheckPartials partials) {
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int nx = coarse.shape.cells[0], ny = coarse.shape.cells[1];
  const Factor<FX> fx{factor[0]};
  const Factor<FY> fy{factor[1]};
  const Factor<FZ> fz{factor[2]};
  const Real inv_children = Real(1) / (factor[0] * factor[1] * factor[2]);
  const fields::FlatField fine_x(x), fine_b(b);
  const bool stores_coarse = coarse_b.data() != nullptr;
  grid::for_each_owned_cell(
      "poisson::restrict_residual_sums", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx() * (ci - gc), j0 = gf + fy() * (cj - gc), k0 = gf + fz() * (ck - gc);
        Real sum = 0;
        ResidualSums share;
        for (int c = 0; c < fz(); ++c) {
          for (int b2 = 0; b2 < fy(); ++b2) {
            for (int a = 0; a < fx(); ++a) {
              const int i = i0 + a, j = j0 + b2, k = k0 + c;
              const Real rhs = fine_b(i, j, k), centre = fine_x(i, j, k);
              const Real res = rhs - (laplacian_neighbours(fine_x, i, j, k, w) + w.diagonal() * centre);
              sum += res;
              share.value[0] += res * res;
              share.value[1] += rhs * rhs;
              share.value[2] += centre;
            }
          }
        }
        if (stores_coarse) coarse_b(ci, cj, ck) = sum * inv_children;
        partials((ci - gc) + nx * ((cj - gc) + ny * (ck - gc))) = share;
      });
}

}  // namespace

void restrict_residual_by_cells(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor) {
  switch (fixed_factors(factor)) {
    case FixedFactors::cube:
      return restrict_cells<2, 2, 2>(coarse_b, x, b, fine, coarse, factor);
    case FixedFactors::square:
      return restrict_cells<2, 2, 1>(coarse_b, x, b, fine, coarse, factor);
    case FixedFactors::none:
      return restrict_cells<0, 0, 0>(coarse_b, x, b, fine, coarse, factor);
  }
}

long long check_partial_count(Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor) {
  if (use_restriction_columns(fine, factor, {x, b})) return restriction_column_count(coarse);
  const auto& n = coarse.shape.cells;
  return static_cast<long long>(n[0]) * n[1] * n[2];
}

void restrict_residual_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                 const Int3& factor, CheckPartials partials, Buffer sums,
                                 const parallel::Reducer& reducer) {
  const int shares = static_cast<int>(check_partial_count(x, b, fine, coarse, factor));
  require(static_cast<int>(partials.extent(0)) >= shares, "restrict_residual_with_sums: too few partial sums");
  if (use_restriction_columns(fine, factor, {x, b})) {
    restrict_residual_by_columns(coarse_b, x, b, fine, coarse, partials);
  } else {
    switch (fixed_factors(factor)) {
      case FixedFactors::cube:
        restrict_cells_with_sums<2, 2, 2>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
      case FixedFactors::square:
        restrict_cells_with_sums<2, 2, 1>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
      case FixedFactors::none:
        restrict_cells_with_sums<0, 0, 0>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
    }
  }
  Kokkos::parallel_reduce(
      "poisson::check_partials_sum", grid::ReduceRange(0, shares),
      KOKKOS_LAMBDA(int p, ResidualSums& total) { total += partials(p); }, into_buffer<3>(sums));
  reduce_sums(sums, 3, fine, reducer);
}

void apply_and_dot(Field q, Field p, const PoissonLevel& level, Buffer pq, const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::cg_apply", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<1>& s) {
        const Real lp = laplacian_at(p, i, j, k, w);
        q(i, j, k) = lp;
        s.value[0] += p(i, j, k) * lp;
      },
      into_buffer<1>(pq));
  reduce_sums(pq, 1, level, reducer);
}

void cg_step(Field x, Field r, Field p, Field q, Buffer current, Buffer pq, Buffer next, bool fuse_norm,
             const PoissonLevel& level, const parallel::Reducer& reducer) {
  if (!fuse_norm) {
    grid::for_each_owned_cell(
        "poisson::cg_step", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
          const Real alpha = pq(0) != 0 ? current(0) / pq(0) : Real(0);
          x(i, j, k) += alpha * p(i, j, k);
          r(i, j, k) -= alpha * q(i, j, k);
        });
    return;
  }
  grid::reduce_over_owned_cells(
      "poisson::cg_step_norm", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<1>& s) {
        const Real alpha = pq(0) != 0 ? current(0) / pq(0) : Real(0);
        x(i, j, k) += alpha * p(i, j, k);
        const Real res = r(i, j, k) - alpha * q(i, j, k);
        r(i, j, k) = res;
        s.value[0] += res * res;
      },
      into_buffer<1>(next));
  reduce_sums(next, 1, level, reducer);
}

void preconditioned_dots(Field r, Field z, Field q, Buffer next, const PoissonLevel& level,
                         const parallel::Reducer& reducer) {
  grid::reduce_over_owned_cells(
      "poisson::cg_dots", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<3>& s) {
        const Real res = r(i, j, k), pre = z(i, j, k);
        s.value[0] += res * pre;
        s.value[1] += res * res;
        s.value[2] += q(i, j, k) * pre;
      },
      into_buffer<3>(next));
  reduce_sums(next, 3, level, reducer);
}

void cg_direction(Field p, Field z, Buffer current, Buffer next, Buffer pq, bool flexible, const PoissonLevel& level) {
  grid::for_each_owned_cell(
      "poisson::cg_direction", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        Real beta = 0;
        if (current(0) != 0) {
          if (flexible) {
            const Real alpha = pq(0) != 0 ? current(0) / pq(0) : Real(0);
            beta = -alpha * next(2) / current(0);
          } else {
            beta = next(0) / current(0);
          }
        }
        p(i, j, k) = z(i, j, k) + beta * p(i, j, k);
      });
}

}  // namespace eddy::solver
