#include "solver/cg_updates.hpp"

#include "grid/cell_loops.hpp"
#include "solver/laplacian.hpp"

namespace eddy::solver {

void apply_and_dot(Field q, Field p, const PoissonLevel& level, Buffer pq, const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::cg_apply", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<1>& s) {
        const Real lp = laplacian_at(p, i, j, k, w);
        q(i, j, k) = lp;
        s.value[0] += p(i, j, k) * lp;
      },
      sums_into<1>(pq));
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
      sums_into<1>(next));
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
      sums_into<3>(next));
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
