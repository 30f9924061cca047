#include "solver/line_multigrid.hpp"

#include "core/error.hpp"
#include "grid/axis_metric.hpp"
#include "grid/cell_loops.hpp"
#include "solver/level_sums.hpp"

#include <algorithm>
#include <cmath>

namespace eddy::solver {

struct LineMultigrid::Level {
  PoissonLevel level;
  grid::GridMetric metric;
  Field x, b, r, cp, dp, dz;  // dz: the second right-hand side of a periodic line (Sherman-Morrison)
  std::unique_ptr<GhostFiller> ghosts;
  Int3 factor{1, 1, 1};  // to the next coarser level
};

namespace {

using Metric = grid::GridMetric;
using Axis = grid::AxisMetric;

// The view point of position t along axis `line` and positions p, q along the other two axes (in order).
KOKKOS_INLINE_FUNCTION void line_point(int line, int p, int q, int t, int& i, int& j, int& k) {
  i = line == 0 ? t : p;
  j = line == 0 ? p : (line == 1 ? t : q);
  k = line == 2 ? t : q;
}

// sum over axes of (x(+1) - x) / gap - (x - x(-1)) / gap(-1), over the width: the Laplacian of a stretched grid.
KOKKOS_INLINE_FUNCTION Real stretched_laplacian(const Field& x, const Metric& m, int i, int j, int k, bool three_d) {
  const Real c = x(i, j, k);
  Real result = ((x(i + 1, j, k) - c) * m.x.inv_gap(i) - (c - x(i - 1, j, k)) * m.x.inv_gap(i - 1)) * m.x.inv_width(i) +
                ((x(i, j + 1, k) - c) * m.y.inv_gap(j) - (c - x(i, j - 1, k)) * m.y.inv_gap(j - 1)) * m.y.inv_width(j);
  if (three_d) {
    result += ((x(i, j, k + 1) - c) * m.z.inv_gap(k) - (c - x(i, j, k - 1)) * m.z.inv_gap(k - 1)) * m.z.inv_width(k);
  }
  return result;
}

void residual(const LineMultigrid::Level& level) {
  const Field r = level.r, x = level.x, b = level.b;
  const Metric m = level.metric;
  const bool three_d = level.level.decomp.global.dim == 3;
  Kokkos::parallel_for(
      "line_mg::residual", grid::owned_cells(level.level.shape),
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - stretched_laplacian(x, m, i, j, k, three_d); });
}

// One colour of zebra line Gauss-Seidel along `line`: every line whose position along the other axes has the parity
// `colour` is solved exactly, its neighbours on the other lines held.
void line_sweep(const LineMultigrid::Level& level, int line, int colour, Real omega) {
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

// The coarse level's right-hand side: the fine residual averaged over each coarse cell's children by volume.
void restrict_residual(const LineMultigrid::Level& fine, const LineMultigrid::Level& coarse) {
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

// x_fine += the coarse correction, interpolated linearly between coarse centres along each coarsened axis.
void prolong_add(const LineMultigrid::Level& coarse, const LineMultigrid::Level& fine) {
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

// {|b - L x|^2, |b|^2, sum of x} of the level's owned cells into `sums`, and r = b - L x.
void residual_sums_of(const LineMultigrid::Level& level, Field r, Buffer sums) {
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

// q = L p over the owned cells (the ghosts of p valid), and the volume-weighted <p, q> of this rank.
Real apply_operator(const LineMultigrid::Level& level, Field p, Field q) {
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

// The volume-weighted {<z, r>, <z, r_previous>} of this rank.
std::array<Real, 2> krylov_dots(const LineMultigrid::Level& level, Field z, Field r, Field r_previous) {
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

// {sum of volume x f, sum of volume} over the owned cells (host values, this rank's).
std::array<Real, 2> volume_sums(const LineMultigrid::Level& level, Field f) {
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

// Sweeps before and after each coarse-grid correction at least: with one, the cycles precondition CG too weakly for a
// tenfold reduction per iteration on the test problems (tests/poisson/test_line_multigrid.cpp).
constexpr int line_sweeps = 2;

// p = z + beta p and r_previous = r over every view point (a free function: nvcc needs device lambdas outside
// protected members).
void new_direction(Field p, Field z, Field r, Field r_previous, Real beta, const fields::LocalShape& s) {
  Kokkos::parallel_for(
      "line_mg::direction", grid::box({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        p(i, j, k) = z(i, j, k) + beta * p(i, j, k);
        r_previous(i, j, k) = r(i, j, k);
      });
}

// phi += alpha p and r -= alpha q over every view point.
void step_along(Field phi, Field r, Field p, Field q, Real alpha, const fields::LocalShape& s) {
  Kokkos::parallel_for(
      "line_mg::update", grid::box({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        phi(i, j, k) += alpha * p(i, j, k);
        r(i, j, k) -= alpha * q(i, j, k);
      });
}

// The coarsening of the next level: lines' axes halve while every block along them is even and at least 4 cells;
// the other axes as well, the finest of them first, so that their cells stay within twice each other's size.
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

}  // namespace

LineMultigrid::LineMultigrid(const config::PoissonConfig& config, const PoissonProblem& problem,
                             parallel::Context& context, const parallel::Reducer& reducer)
    : StationarySolver(config, problem, reducer),
      pre_smooth_(config.pre_smooth),
      post_smooth_(config.post_smooth),
      omega_(config.relaxation),
      gamma_(config.cycle == config::CycleType::v ? 1 : 2),
      r_(fields::make_field("line_mg::r_krylov", problem.shape)),
      r_previous_(fields::make_field("line_mg::r_previous", problem.shape)),
      z_(fields::make_field("line_mg::z", problem.shape)),
      p_(fields::make_field("line_mg::p", problem.shape)),
      q_(fields::make_field("line_mg::q", problem.shape)) {
  const auto& global = problem.decomp.global;
  bool periodic_lines = false;
  for (int a = 0; a < global.dim; ++a) {
    lines_[a] = global.stretched(a) ? 1 : 0;
    require(!lines_[a] || problem.decomp.dims[a] == 1, "line multigrid: a stretched axis is split across ranks");
    periodic_lines = periodic_lines || (lines_[a] && global.periodic[a]);
  }
  PoissonLevel current{problem.decomp, problem.shape,  problem.spacing,
                       problem.faces,  problem.timers, problem.exchange_clock};
  for (;;) {
    auto level = std::make_unique<Level>();
    level->level = current;
    level->metric = grid::make_grid_metric(current.decomp, current.shape);
    const bool top = levels_.empty();
    if (!top) {
      level->x = fields::make_field("line_mg::x", current.shape);
      level->b = fields::make_field("line_mg::b", current.shape);
    }
    level->r = fields::make_field("line_mg::r", current.shape);
    level->cp = fields::make_field("line_mg::cp", current.shape);
    level->dp = fields::make_field("line_mg::dp", current.shape);
    if (periodic_lines) level->dz = fields::make_field("line_mg::dz", current.shape);
    level->ghosts = std::make_unique<GhostFiller>(context, current, problem.halo_transport);
    level->factor = line_coarsening(current, lines_);
    const bool last = level->factor == Int3{1, 1, 1};
    levels_.push_back(std::move(level));
    if (last) break;
    current = coarsen(current, levels_.back()->factor);
  }
}

LineMultigrid::~LineMultigrid() = default;

std::string LineMultigrid::hierarchy() const {
  std::string text = std::string("flexible CG, ") + (gamma_ == 1 ? "V" : "W") + "-cycles with lines along";
  for (int a = 0; a < 3; ++a) {
    if (lines_[a]) text += std::string(" ") + "xyz"[a];
  }
  text += "; levels";
  for (const auto& level : levels_) {
    const auto& c = level->level.decomp.global.cells;
    text += " " + std::to_string(c[0]) + "x" + std::to_string(c[1]) +
            (level->level.decomp.global.dim == 3 ? "x" + std::to_string(c[2]) : "");
  }
  return text;
}

void LineMultigrid::smooth(int l, int sweeps) {
  Level& level = *levels_[l];
  for (int s = 0; s < sweeps; ++s) {
    for (int a = 0; a < 3; ++a) {
      if (!lines_[a]) continue;
      for (int colour = 0; colour < 2; ++colour) {
        level.ghosts->fill(level.x);
        line_sweep(level, a, colour, omega_);
      }
    }
  }
  level.ghosts->fill(level.x);
}

void LineMultigrid::cycle(int l) {
  const int last = static_cast<int>(levels_.size()) - 1;
  if (l == last) {
    // The coarsest level: sweeps enough to carry a correction across it.
    const auto& cells = levels_[l]->level.decomp.global.cells;
    smooth(l, 2 * std::max({cells[0], cells[1], cells[2]}) + 4);
    return;
  }
  smooth(l, std::max(line_sweeps, pre_smooth_));
  residual(*levels_[l]);
  restrict_residual(*levels_[l], *levels_[l + 1]);
  for (int visit = 0; visit < (l + 2 == static_cast<int>(levels_.size()) ? 1 : gamma_); ++visit) cycle(l + 1);
  prolong_add(*levels_[l + 1], *levels_[l]);
  smooth(l, std::max(line_sweeps, post_smooth_));
}

PoissonStats LineMultigrid::solve(Field phi, Field rhs, const SolveRequest& request) {
  first_iteration_ = true;
  return StationarySolver::solve(phi, rhs, request);
}

// One step of flexible CG (Polak-Ribiere) in the volume-weighted inner product, in which the stretched operator is
// symmetric, preconditioned by one multigrid cycle: r_ holds b - L phi on entry (measure) and on exit.
void LineMultigrid::iterate(Field phi, Field b) {
  Level& top = *levels_[0];
  Kokkos::deep_copy(z_, Real(0));
  top.x = z_;
  top.b = r_;
  cycle(0);
  const auto dots = reducer_->allreduce(krylov_dots(top, z_, r_, r_previous_), parallel::ReduceOp::sum);
  const Real beta = first_iteration_ ? 0 : (dots[0] - dots[1]) / zr_previous_;
  zr_previous_ = dots[0];
  first_iteration_ = false;
  new_direction(p_, z_, r_, r_previous_, beta, top.level.shape);
  // The cycle left z's ghosts valid, and p's follow, so phi's stay valid below.
  const Real pq = reducer_->allreduce(std::array<Real, 1>{apply_operator(top, p_, q_)}, parallel::ReduceOp::sum)[0];
  step_along(phi, r_, p_, q_, dots[0] / pq, top.level.shape);
  top.x = phi;
  top.b = b;
}

void LineMultigrid::measure(Field phi, Field b) {
  Level& top = *levels_[0];
  top.x = phi;
  top.b = b;
  residual_sums_of(top, r_, sums_);
  reduce_sums(sums_, 3, top.level, *reducer_);
}

Real LineMultigrid::rhs_mean(Field rhs) {
  const auto sums = reducer_->allreduce(volume_sums(*levels_[0], rhs), parallel::ReduceOp::sum);
  return sums[0] / sums[1];
}

GhostFiller& LineMultigrid::ghosts() { return *levels_[0]->ghosts; }

}  // namespace eddy::solver
