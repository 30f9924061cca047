#include "solver/multigrid.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "solver/poisson_kernels.hpp"

namespace eddy::solver {
namespace {

// Coarsest-level CG: tight enough that the cycle behaves like an exact coarse solve.
constexpr Real bottom_rtol = 1e-10;
constexpr int bottom_max_iterations = 2000;

// Weighted Jacobi weight with the best smoothing factor for the 2D / 3D Laplacian (2d / (2d + 1)).
Real jacobi_weight(int dimensions) { return dimensions == 2 ? Real(0.8) : Real(6.0 / 7.0); }

}  // namespace

Multigrid::Multigrid(const PoissonLevel& top, parallel::Context& context, const parallel::Reducer& reducer,
                     const config::PoissonConfig& config, config::CommBackend halo_backend, bool symmetric)
    : config_(config), symmetric_(symmetric) {
  if (symmetric_) config_.post_smooth = config_.pre_smooth;
  require(config.smoother != config::SmootherType::chebyshev,
          "pressure.smoother: 'chebyshev' is not available yet; use red_black_gauss_seidel or jacobi");
  const bool jacobi = config.smoother == config::SmootherType::jacobi;
  PoissonLevel geometry = top;
  while (true) {
    Level level;
    level.geometry = geometry;
    level.ghosts = std::make_unique<GhostFiller>(context, geometry, halo_backend);
    level.factor = coarsening_factor(geometry);
    const bool top_level = levels_.empty();
    if (!top_level) {
      level.x = fields::make_field("mg::x", geometry.shape);
      level.b = fields::make_field("mg::b", geometry.shape);
    }
    if (jacobi) level.r = fields::make_field("mg::r", geometry.shape);
    const Int3 factor = level.factor;
    levels_.push_back(std::move(level));
    if (factor == Int3{1, 1, 1}) break;
    geometry = coarsen(geometry, factor);
  }
  levels_.back().factor = {1, 1, 1};
  bottom_ = std::make_unique<ConjugateGradient>(levels_.back().geometry, context, reducer, halo_backend, false);
}

void Multigrid::cycle(Field x, Field b) {
  ProfileRegion region("poisson::mg_cycle");
  visit(0, x, b, config_.cycle);
}

void Multigrid::apply(Field z, Field r) {
  Kokkos::deep_copy(z, Real(0));
  cycle(z, r);
}

void Multigrid::visit(int l, Field x, Field b, config::CycleType type) {
  if (l + 1 == level_count()) {
    StopCriteria stop{bottom_rtol, 0, bottom_max_iterations, 1};
    bottom_->solve(x, b, stop);
    return;
  }
  auto& fine = levels_[l];
  auto& coarse = levels_[l + 1];
  smooth(l, x, b, config_.pre_smooth, false);
  restrict_residual(coarse.b, x, b, fine.geometry, coarse.geometry, fine.factor);
  Kokkos::deep_copy(coarse.x, Real(0));
  switch (type) {
    case config::CycleType::v:
      visit(l + 1, coarse.x, coarse.b, type);
      break;
    case config::CycleType::w:
      visit(l + 1, coarse.x, coarse.b, type);
      visit(l + 1, coarse.x, coarse.b, type);
      break;
    case config::CycleType::f:
      visit(l + 1, coarse.x, coarse.b, config::CycleType::f);
      visit(l + 1, coarse.x, coarse.b, config::CycleType::v);
      break;
  }
  prolong_add(x, coarse.x, fine.geometry, coarse.geometry, fine.factor);
  fine.ghosts->fill(x);
  smooth(l, x, b, config_.post_smooth, symmetric_);
}

void Multigrid::smooth(int l, Field x, Field b, int sweeps, bool reverse) {
  auto& level = levels_[l];
  for (int s = 0; s < sweeps; ++s) {
    if (config_.smoother == config::SmootherType::jacobi) {
      residual(level.r, x, b, level.geometry);
      jacobi_correct(x, level.r, level.geometry, jacobi_weight(level.geometry.decomp.global.dim));
      level.ghosts->fill(x);
      continue;
    }
    for (int c = 0; c < 2; ++c) {
      red_black_sweep(x, b, level.geometry, reverse ? 1 - c : c);
      level.ghosts->fill(x);
    }
  }
}

}  // namespace eddy::solver
