#include "solver/line_level.hpp"

#include "grid/cell_loops.hpp"
#include "solver/level_sums.hpp"

#include <algorithm>

namespace eddy::solver {
namespace {

using Metric = grid::GridMetric;
using Axis = grid::AxisMetric;

// The view point of position t along axis `line` and positions p, q along the other two axes (in order).
KOKKOS_INLINE_FUNCTION void line_point(int line, int p, int q, int t, int& i, int& j, int& k) {
  i = line == 0 ? t : p;
  j = line == 0 ? p : (line == 1 ? t : q);
  k = line == 2 ? t : q;
}

// The Laplacian of a stretched grid: the second differences of the centres along each axis.
KOKKOS_INLINE_FUNCTION Real stretched_laplacian(const Field& x, const Metric& m, int i, int j, int k, bool three_d) {
  const Real c = x(i, j, k);
  Real result = grid::second_difference_at_centre(x(i - 1, j, k), c, x(i + 1, j, k), m.x, i) +
                grid::second_difference_at_centre(x(i, j - 1, k), c, x(i, j + 1, k), m.y, j);
  if (three_d) result += grid::second_difference_at_centre(x(i, j, k - 1), c, x(i, j, k + 1), m.z, k);
  return result;
}

}  // namespace

void stretched_residual(const LineLevel& level) {
  const Field r = level.r, x = level.x, b = level.b;
  const Metric m = level.metric;
  const bool three_d = level.level.decomp.global.dim == 3;
  Kokkos::parallel_for(
      "line_mg::residual", grid::owned_cells(level.level.shape),
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - stretched_laplacian(x, m, i, j, k, three_d); });
}

void zebra_line_sweep(const LineLevel& level, int line, int colour, Real omega) {
  const auto& lv = level.level;
  const Field x = level.x, b = level.b, cp = level.cp, dp = level.dp, dz = level.dz;
  const Metric m = level.metric;
  const bool three_d = lv.decomp.global.dim == 3;
  const int g = lv.shape.ghost, n = lv.shape.cells[line];
  const int axis_p = line == 0 ? 1 : 0, axis_q = line == 2 ? 1 : 2;
  const int offset_p = lv.decomp.offset[axis_p], offset_q = lv.decomp.offset[axis_q];
  const PressureBoundary low = lv.faces[2 * line], high = lv.faces[2 * line + 1];
  const bool periodic = low == PressureBoundary::periodic;
  const Real low_fold = low == PressureBoundary::neumann ? 1 : -1,
             high_fold = high == PressureBoundary::neumann ? 1 : -1;
  const bool z_couples = three_d;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>, Kokkos::IndexType<int>>;
  const Policy lines({g, g}, {g + lv.shape.cells[axis_p], g + lv.shape.cells[axis_q]});
  Kokkos::parallel_for(
      "line_mg::line_sweep", lines, KOKKOS_LAMBDA(int p, int q) {
        if (((p - g + offset_p) + (q - g + offset_q)) % 2 != colour) return;
        const Axis& along = m.along(line);
        // A periodic line's couplings of its first and last cells, moved into a rank-one update (Sherman-Morrison,
        // with gamma = -diagonal of the first cell): the line is solved for the right-hand side and for u.
        Real corner_low = 0, gamma = 0;
        Real cp_prev = 0, dp_prev = 0, dz_prev = 0;
        for (int t = g; t < g + n; ++t) {
          int i, j, k;
          line_point(line, p, q, t, i, j, k);
          Real a = along.inv_gap(t - 1) * along.inv_width(t), c = along.inv_gap(t) * along.inv_width(t);
          Real diag = -(a + c), rhs = b(i, j, k), u = 0;
          for (int other = 0; other < 3; ++other) {
            if (other == line || (other == 2 && !z_couples)) continue;
            const Axis& o = m.along(other);
            const int s = other == 0 ? i : (other == 1 ? j : k);
            const Real lo = o.inv_gap(s - 1) * o.inv_width(s), hi = o.inv_gap(s) * o.inv_width(s);
            const Real x_lo = other == 0 ? x(i - 1, j, k) : (other == 1 ? x(i, j - 1, k) : x(i, j, k - 1));
            const Real x_hi = other == 0 ? x(i + 1, j, k) : (other == 1 ? x(i, j + 1, k) : x(i, j, k + 1));
            diag -= lo + hi;
            rhs -= lo * x_lo + hi * x_hi;
          }
          if (t == g) {
            if (periodic) {
              corner_low = a;
              gamma = -diag;
              u = gamma;
              diag -= gamma;
            } else {
              diag += low_fold * a;
            }
            a = 0;
          }
          if (t == g + n - 1) {
            if (periodic) {
              u = c;
              diag -= c * corner_low / gamma;
            } else {
              diag += high_fold * c;
            }
            c = 0;
          }
          const Real pivot = diag - a * cp_prev;
          cp_prev = c / pivot;
          dp_prev = (rhs - a * dp_prev) / pivot;
          cp(i, j, k) = cp_prev;
          dp(i, j, k) = dp_prev;
          if (periodic) {
            dz_prev = (u - a * dz_prev) / pivot;
            dz(i, j, k) = dz_prev;
          }
        }
        Real y_next = 0, z_next = 0;
        for (int t = g + n - 1; t >= g; --t) {
          int i, j, k;
          line_point(line, p, q, t, i, j, k);
          y_next = dp(i, j, k) - cp(i, j, k) * y_next;
          const Real old = x(i, j, k);
          if (periodic) {
            dp(i, j, k) = old;  // relaxed once the rank-one update is in
            x(i, j, k) = y_next;
          } else {
            x(i, j, k) = old + omega * (y_next - old);
          }
          if (periodic) {
            z_next = dz(i, j, k) - cp(i, j, k) * z_next;
            dz(i, j, k) = z_next;
          }
        }
        if (periodic) {
          int fi, fj, fk, li, lj, lk;
          line_point(line, p, q, g, fi, fj, fk);
          line_point(line, p, q, g + n - 1, li, lj, lk);
          const Real factor = (x(fi, fj, fk) + corner_low * x(li, lj, lk) / gamma) /
                              (1 + dz(fi, fj, fk) + corner_low * dz(li, lj, lk) / gamma);
          for (int t = g; t < g + n; ++t) {
            int i, j, k;
            line_point(line, p, q, t, i, j, k);
            const Real old = dp(i, j, k);
            x(i, j, k) = old + omega * (x(i, j, k) - factor * dz(i, j, k) - old);
          }
        }
      });
}

void restrict_by_volume(const LineLevel& fine, const LineLevel& coarse) {
  const Field r = fine.r, b = coarse.b;
  const Metric m = fine.metric;
  const int g = fine.level.shape.ghost;
  const int fx = fine.factor[0], fy = fine.factor[1], fz = fine.factor[2];
  Kokkos::deep_copy(coarse.x, Real(0));
  Kokkos::parallel_for(
      "line_mg::restrict", grid::owned_cells(coarse.level.shape), KOKKOS_LAMBDA(int I, int J, int K) {
        const int i0 = g + fx * (I - g), j0 = g + fy * (J - g), k0 = g + fz * (K - g);
        Real sum = 0, volume = 0;
        for (int k = k0; k < k0 + fz; ++k) {
          for (int j = j0; j < j0 + fy; ++j) {
            for (int i = i0; i < i0 + fx; ++i) {
              const Real v = m.volume(i, j, k);
              sum += v * r(i, j, k);
              volume += v;
            }
          }
        }
        b(I, J, K) = sum / volume;
      });
}

void prolong_linear_add(const LineLevel& coarse, const LineLevel& fine) {
  const Field xc = coarse.x, x = fine.x;
  const Metric mf = fine.metric, mc = coarse.metric;
  const int g = fine.level.shape.ghost;
  const int fx = fine.factor[0], fy = fine.factor[1], fz = fine.factor[2];
  Kokkos::parallel_for(
      "line_mg::prolong", grid::owned_cells(fine.level.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        int own[3], other[3];
        Real weight[3];
        const int idx[3] = {i, j, k}, factor[3] = {fx, fy, fz};
        for (int a = 0; a < 3; ++a) {
          const Axis& f = mf.along(a);
          const Axis& c = mc.along(a);
          if (factor[a] == 1) {
            own[a] = other[a] = idx[a];
            weight[a] = 0;
          } else {
            own[a] = g + (idx[a] - g) / 2;
            const bool low_child = (idx[a] - g) % 2 == 0;
            other[a] = low_child ? own[a] - 1 : own[a] + 1;
            // The fine centre lies half its sibling's width from the coarse centre, towards the other coarse centre.
            weight[a] = low_child ? Real(0.5) * f.width(idx[a] + 1) * c.inv_gap(own[a] - 1)
                                  : Real(0.5) * f.width(idx[a] - 1) * c.inv_gap(own[a]);
          }
        }
        Real value = 0;
        for (int corner = 0; corner < 8; ++corner) {
          Real w = 1;
          int at[3];
          for (int a = 0; a < 3; ++a) {
            const bool far = (corner >> a) & 1;
            if (far && weight[a] == 0) {
              w = 0;
              break;
            }
            w *= far ? weight[a] : 1 - weight[a];
            at[a] = far ? other[a] : own[a];
          }
          if (w != 0) value += w * xc(at[0], at[1], at[2]);
        }
        x(i, j, k) += value;
      });
}

void stretched_residual_sums(const LineLevel& level, Field r, Buffer sums) {
  const Field x = level.x, b = level.b;
  const Metric m = level.metric;
  const bool three_d = level.level.decomp.global.dim == 3;
  grid::reduce_over_owned_cells(
      "line_mg::residual_sums", level.level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, ResidualSums& s) {
        const Real res = b(i, j, k) - stretched_laplacian(x, m, i, j, k, three_d);
        r(i, j, k) = res;
        s.value[0] += res * res;
        s.value[1] += b(i, j, k) * b(i, j, k);
        s.value[2] += x(i, j, k);
      },
      sums_into<3>(sums));
}

Real apply_stretched_operator(const LineLevel& level, Field p, Field q) {
  const Metric m = level.metric;
  const bool three_d = level.level.decomp.global.dim == 3;
  Real pq = 0;
  grid::reduce_over_owned_cells(
      "line_mg::operator", level.level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Real& sum) {
        const Real value = stretched_laplacian(p, m, i, j, k, three_d);
        q(i, j, k) = value;
        sum += m.volume(i, j, k) * p(i, j, k) * value;
      },
      Kokkos::Sum<Real>(pq));
  return pq;
}

std::array<Real, 2> volume_dots(const LineLevel& level, Field z, Field r, Field r_previous) {
  const Metric m = level.metric;
  Sums<2> local;
  grid::reduce_over_owned_cells(
      "line_mg::dots", level.level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<2>& s) {
        const Real vz = m.volume(i, j, k) * z(i, j, k);
        s.value[0] += vz * r(i, j, k);
        s.value[1] += vz * r_previous(i, j, k);
      },
      Kokkos::Sum<Sums<2>>(local));
  return {local.value[0], local.value[1]};
}

std::array<Real, 2> volume_sums(const LineLevel& level, Field f) {
  const Metric m = level.metric;
  Sums<2> local;
  grid::reduce_over_owned_cells(
      "line_mg::volume_sums", level.level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<2>& s) {
        const Real v = m.volume(i, j, k);
        s.value[0] += v * f(i, j, k);
        s.value[1] += v;
      },
      Kokkos::Sum<Sums<2>>(local));
  return {local.value[0], local.value[1]};
}

void flexible_cg_direction(Field p, Field z, Field r, Field r_previous, Real beta, const fields::LocalShape& s) {
  Kokkos::parallel_for(
      "line_mg::direction", grid::box({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        p(i, j, k) = z(i, j, k) + beta * p(i, j, k);
        r_previous(i, j, k) = r(i, j, k);
      });
}

void flexible_cg_step(Field phi, Field r, Field p, Field q, Real alpha, const fields::LocalShape& s) {
  Kokkos::parallel_for(
      "line_mg::update", grid::box({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        phi(i, j, k) += alpha * p(i, j, k);
        r(i, j, k) -= alpha * q(i, j, k);
      });
}

Int3 line_coarsening(const PoissonLevel& fine, const Int3& lines) {
  Int3 factor{1, 1, 1};
  const auto& d = fine.decomp;
  const int axes = d.global.dim == 2 ? 2 : 3;
  const auto halves = [&](int a) {
    for (int c = 0; c < d.dims[a]; ++c) {
      const int n = grid::block_size(d.global.cells[a], d.dims[a], c);
      if (n % 2 != 0 || n < 4) return false;
    }
    return true;
  };
  Real finest = 0;
  for (int a = 0; a < axes; ++a) {
    if (!lines[a] && (finest == 0 || d.global.spacing(a) < finest)) finest = d.global.spacing(a);
  }
  for (int a = 0; a < axes; ++a) {
    if (halves(a) && (lines[a] || d.global.spacing(a) <= finest * (1 + 1e-9))) factor[a] = 2;
  }
  return factor;
}

}  // namespace eddy::solver
