#include "solver/poisson_kernels.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
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

// Linear interpolation between cell centres two fine cells apart: the parent's weight and the partner's.
constexpr Real parent_share = 0.75, partner_share = 0.25;

/// The view index of the parent cell and the linear-interpolation partner along one axis of a fine cell.
struct InterpolationAxis {
  int parent, partner;
  Real parent_weight, partner_weight;
};

KOKKOS_INLINE_FUNCTION InterpolationAxis interpolation_axis(int fine_index, int fine_ghost, int coarse_ghost,
                                                            int factor) {
  const int local = fine_index - fine_ghost;
  if (factor == 1) return {coarse_ghost + local, coarse_ghost + local, 1, 0};
  const int parent = coarse_ghost + (local >> 1);  // local >= 0: owned cells only
  return {parent, parent + ((local & 1) == 0 ? -1 : 1), parent_share, partner_share};
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

void subtract_constant(Field f, Real value) {
  require(f.span_is_contiguous(), "subtract_constant: the field must be contiguous");
  Real* data = f.data();
  Kokkos::parallel_for(
      "poisson::subtract_constant", grid::SpanPolicy(0, static_cast<long long>(f.span())),
      KOKKOS_LAMBDA(long long p) { data[p] -= value; });
}

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
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int fx = factor[0], fy = factor[1], fz = factor[2];
  const Real inv_children = Real(1) / (fx * fy * fz);
  grid::for_each_owned_cell(
      "poisson::restrict_residual", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx * (ci - gc), j0 = gf + fy * (cj - gc), k0 = gf + fz * (ck - gc);
        Real sum = 0;
        for (int c = 0; c < fz; ++c) {
          for (int b2 = 0; b2 < fy; ++b2) {
            for (int a = 0; a < fx; ++a) {
              const int i = i0 + a, j = j0 + b2, k = k0 + c;
              sum += b(i, j, k) - laplacian_at(x, i, j, k, w);
            }
          }
        }
        coarse_b(ci, cj, ck) = sum * inv_children;
      });
}

void restrict_residual_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                 const Int3& factor, CheckPartials partials, Buffer sums,
                                 const parallel::Reducer& reducer) {
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int fx = factor[0], fy = factor[1], fz = factor[2];
  const int nx = coarse.shape.cells[0], ny = coarse.shape.cells[1];
  const int count = nx * ny * coarse.shape.cells[2];
  require(static_cast<int>(partials.extent(0)) >= count, "restrict_residual_with_sums: too few partial sums");
  const Real inv_children = Real(1) / (fx * fy * fz);
  const fields::FlatField fine_x(x), fine_b(b);
  grid::for_each_owned_cell(
      "poisson::restrict_residual_sums", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx * (ci - gc), j0 = gf + fy * (cj - gc), k0 = gf + fz * (ck - gc);
        Real sum = 0;
        ResidualSums share;
        for (int c = 0; c < fz; ++c) {
          for (int b2 = 0; b2 < fy; ++b2) {
            for (int a = 0; a < fx; ++a) {
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
        coarse_b(ci, cj, ck) = sum * inv_children;
        partials((ci - gc) + nx * ((cj - gc) + ny * (ck - gc))) = share;
      });
  Kokkos::parallel_reduce(
      "poisson::check_partials_sum", grid::ReduceRange(0, count),
      KOKKOS_LAMBDA(int p, ResidualSums& total) { total += partials(p); }, into_buffer<3>(sums));
  reduce_sums(sums, 3, fine, reducer);
}

namespace {

// Prolongation where x is coarsened by two: each thread adds the correction to the two fine cells of one coarse
// parent along x, which share the parent's x-neighbours (12 coarse reads for two cells instead of 16).
void prolong_add_pairs(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, int fy, int fz) {
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const Real* c = coarse_x.data();
  const int row = static_cast<int>(coarse_x.stride(1)), plane = static_cast<int>(coarse_x.stride(2));
  const fields::WritableFlatField fine_x(x);
  const Int3 lo{0, gf, gf}, hi{fine.shape.cells[0] / 2, gf + fine.shape.cells[1], gf + fine.shape.cells[2]};
  grid::for_each_box_point(
      "poisson::prolong_add", lo, hi, KOKKOS_LAMBDA(int pair, int j, int k) {
        const auto ay = interpolation_axis(j, gf, gc, fy);
        const auto az = interpolation_axis(k, gf, gc, fz);
        const Real* parent = c + gc + pair + row * ay.parent + plane * az.parent;
        const int dy = row * (ay.partner - ay.parent), dz = plane * (az.partner - az.parent);
        // Along x at offset o from the parent: the even cell's partner is on the low side, the odd cell's on the high.
        const auto even = [&](int o) { return parent_share * parent[o] + partner_share * parent[o - 1]; };
        const auto odd = [&](int o) { return parent_share * parent[o] + partner_share * parent[o + 1]; };
        const Real even_correction =
            az.parent_weight * (ay.parent_weight * even(0) + ay.partner_weight * even(dy)) +
            az.partner_weight * (ay.parent_weight * even(dz) + ay.partner_weight * even(dy + dz));
        const Real odd_correction = az.parent_weight * (ay.parent_weight * odd(0) + ay.partner_weight * odd(dy)) +
                                    az.partner_weight * (ay.parent_weight * odd(dz) + ay.partner_weight * odd(dy + dz));
        const int i = gf + 2 * pair;
        fine_x(i, j, k) += even_correction;
        fine_x(i + 1, j, k) += odd_correction;
      });
}

}  // namespace

void prolong_add(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, const Int3& factor) {
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int fx = factor[0], fy = factor[1], fz = factor[2];
  if (fx == 2) return prolong_add_pairs(x, coarse_x, fine, coarse, fy, fz);
  const Real* c = coarse_x.data();
  const int row = static_cast<int>(coarse_x.stride(1)), plane = static_cast<int>(coarse_x.stride(2));
  grid::for_each_owned_cell(
      "poisson::prolong_add", fine.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        const auto ax = interpolation_axis(i, gf, gc, fx);
        const auto ay = interpolation_axis(j, gf, gc, fy);
        const auto az = interpolation_axis(k, gf, gc, fz);
        // Flat offsets from the parent, written out term by term: small arrays indexed in loops with run-time bounds
        // went to local memory (the kernel ran at a third of the bandwidth).
        const Real* parent = c + ax.parent + row * ay.parent + plane * az.parent;
        const int dx = ax.partner - ax.parent, dy = row * (ay.partner - ay.parent),
                  dz = plane * (az.partner - az.parent);
        const auto along_x = [&](int o) { return ax.parent_weight * parent[o] + ax.partner_weight * parent[o + dx]; };
        const auto along_xy = [&](int o) {
          return ay.parent_weight * along_x(o) + ay.partner_weight * along_x(o + dy);
        };
        x(i, j, k) += az.parent_weight * along_xy(0) + az.partner_weight * along_xy(dz);
      });
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
