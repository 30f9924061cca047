#include "solver/line_multigrid.hpp"

#include "core/error.hpp"
#include "solver/level_sums.hpp"

#include <algorithm>
#include <cmath>

namespace eddy::solver {
namespace {

// Sweeps before and after each coarse-grid correction at least: with one, the cycles precondition CG too weakly for a
// tenfold reduction per iteration on the test problems (tests/poisson/test_line_multigrid.cpp).
constexpr int line_sweeps = 2;

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
    auto level = std::make_unique<LineLevel>();
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
  LineLevel& level = *levels_[l];
  for (int s = 0; s < sweeps; ++s) {
    for (int a = 0; a < 3; ++a) {
      if (!lines_[a]) continue;
      for (int colour = 0; colour < 2; ++colour) {
        level.ghosts->fill(level.x);
        zebra_line_sweep(level, a, colour, omega_);
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
  stretched_residual(*levels_[l]);
  restrict_by_volume(*levels_[l], *levels_[l + 1]);
  for (int visit = 0; visit < (l + 2 == static_cast<int>(levels_.size()) ? 1 : gamma_); ++visit) cycle(l + 1);
  prolong_linear_add(*levels_[l + 1], *levels_[l]);
  smooth(l, std::max(line_sweeps, post_smooth_));
}

PoissonStats LineMultigrid::solve(Field phi, Field rhs, const SolveRequest& request) {
  first_iteration_ = true;
  return StationarySolver::solve(phi, rhs, request);
}

// One step of flexible CG (Polak-Ribiere) in the volume-weighted inner product, in which the stretched operator is
// symmetric, preconditioned by one multigrid cycle: r_ holds b - L phi on entry (measure) and on exit.
void LineMultigrid::iterate(Field phi, Field b) {
  LineLevel& top = *levels_[0];
  Kokkos::deep_copy(z_, Real(0));
  top.x = z_;
  top.b = r_;
  cycle(0);
  const auto dots = reducer_->allreduce(volume_dots(top, z_, r_, r_previous_), parallel::ReduceOp::sum);
  const Real beta = first_iteration_ ? 0 : (dots[0] - dots[1]) / zr_previous_;
  zr_previous_ = dots[0];
  first_iteration_ = false;
  flexible_cg_direction(p_, z_, r_, r_previous_, beta, top.level.shape);
  // The cycle left z's ghosts valid, and p's follow, so phi's stay valid below.
  const Real pq =
      reducer_->allreduce(std::array<Real, 1>{apply_stretched_operator(top, p_, q_)}, parallel::ReduceOp::sum)[0];
  flexible_cg_step(phi, r_, p_, q_, dots[0] / pq, top.level.shape);
  top.x = phi;
  top.b = b;
}

void LineMultigrid::measure(Field phi, Field b) {
  LineLevel& top = *levels_[0];
  top.x = phi;
  top.b = b;
  stretched_residual_sums(top, r_, sums_);
  reduce_sums(sums_, 3, top.level, *reducer_);
}

Real LineMultigrid::rhs_mean(Field rhs) {
  const auto sums = reducer_->allreduce(volume_sums(*levels_[0], rhs), parallel::ReduceOp::sum);
  return sums[0] / sums[1];
}

GhostFiller& LineMultigrid::ghosts() { return *levels_[0]->ghosts; }

}  // namespace eddy::solver
