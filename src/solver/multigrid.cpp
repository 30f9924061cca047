#include "solver/multigrid.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "solver/chebyshev.hpp"
#include "solver/gathered_levels.hpp"
#include "solver/laplacian.hpp"
#include "solver/prolongation.hpp"
#include "solver/red_black.hpp"
#include "solver/restriction.hpp"

#include <algorithm>

namespace eddy::solver {
namespace {

// Coarsest-level CG, where counts with few factors of two leave a large bottom: a correction a thousand times
// smaller than the bottom's right-hand side leaves the cycle's rate as an exact solve's (tests/poisson/
// test_multigrid_rate.cpp), at a fraction of the CG iterations.
constexpr Real bottom_rtol = 1e-3;
constexpr int bottom_max_iterations = 2000;

// Weighted Jacobi weight with the best smoothing factor for the 2D / 3D Laplacian (2d / (2d + 1)).
Real jacobi_weight(int dimensions) { return dimensions == 2 ? Real(0.8) : Real(6.0 / 7.0); }

// Cells of the largest block of any rank on `level` (the first blocks along each axis take the remainder).
long long largest_block(const PoissonLevel& level) {
  const auto& d = level.decomp;
  long long cells = 1;
  for (int a = 0; a < 3; ++a) cells *= grid::block_size(d.global.cells[a], d.dims[a], 0);
  return cells;
}

// The visits to the next coarser level in a cycle of `type`: a V cycle visits it once as a V, a W twice as a W, an
// F first as an F and then as a V.
struct CoarseVisits {
  config::CycleType type[2];
  int count;
};
CoarseVisits coarse_visits(config::CycleType type) {
  using config::CycleType;
  switch (type) {
    case CycleType::w:
      return {{CycleType::w, CycleType::w}, 2};
    case CycleType::f:
      return {{CycleType::f, CycleType::v}, 2};
    case CycleType::v:
      break;
  }
  return {{CycleType::v, CycleType::v}, 1};
}

}  // namespace

Multigrid::Multigrid(const PoissonLevel& top, parallel::Context& context, const parallel::Reducer& reducer,
                     const config::PoissonConfig& config, parallel::Transport halo_transport, SweepForm sweeps,
                     CycleLaunch launch)
    : config_(config) {
  const bool polynomial = config.smoother != config::SmootherType::red_black_gauss_seidel;
  const bool chebyshev = config.smoother == config::SmootherType::chebyshev;
  int ranks = 1;
  parallel::check_mpi(MPI_Comm_size(context.comm(), &ranks), "MPI_Comm_size(multigrid)");
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const long long bottom_cells = ranks == 1 || !reducer.blocks_host() ? device_bottom_cells : dense_bottom_cells;
  const long long gather_below = reducer.blocks_host() ? gather_cells : device_gather_cells;
#else
  const long long bottom_cells = dense_bottom_cells;
  const long long gather_below = gather_cells;
#endif
  bool gathered = false;
  PoissonLevel geometry = top;
  while (true) {
    Level level;
    level.geometry = geometry;
    level.ghosts = std::make_unique<GhostFiller>(context, geometry, halo_transport, true);
    const bool top_level = levels_.empty();
    const bool bottom_here = geometry.global_cells() <= bottom_cells && DenseCoarseSolver::fits(geometry);
    gathered = !top_level && !bottom_here && ranks > 1 && config.gather_coarse_levels &&
               largest_block(geometry) <= gather_below && geometry.global_cells() <= max_gathered_cells;
    level.factor = bottom_here || gathered ? Int3{1, 1, 1} : coarsening_factor(geometry);
    if (!top_level) {
      level.x = fields::make_field("mg::x", geometry.shape);
      level.b = fields::make_field("mg::b", geometry.shape);
    }
    if (polynomial) level.r = fields::make_field("mg::r", geometry.shape);
    const bool fuse_here = sweeps == SweepForm::fused ? fused_sweep_fits(geometry)
                                                      : sweeps == SweepForm::automatic && fused_sweep_pays_on(geometry);
    if (!polynomial && fuse_here && !gathered) level.twin = fields::make_field("mg::twin", geometry.shape);
    level.passes_read_no_ghosts = !polynomial && !level.twin.is_allocated() && colour_passes_read_no_ghosts(geometry);
    if (chebyshev) {
      level.d = fields::make_field("mg::d", geometry.shape);
      const auto w = geometry.weights();
      const auto band = high_frequency_band({w.x, w.y, w.z}, level.factor);
      level.pre_sweeps = chebyshev_sweeps(band, config_.pre_smooth);
      level.post_sweeps = chebyshev_sweeps(band, config_.post_smooth);
    }
    const Int3 factor = level.factor;
    levels_.push_back(std::move(level));
    if (factor == Int3{1, 1, 1}) break;
    geometry = coarsen(geometry, factor);
  }
  levels_.back().factor = {1, 1, 1};
  const auto& bottom = levels_.back().geometry;
  if (gathered) {
    gathered_ = std::make_unique<GatheredLevels>(bottom, reducer, config, sweeps);
  } else if (DenseCoarseSolver::fits(bottom)) {
    dense_bottom_ = std::make_unique<DenseCoarseSolver>(bottom, reducer);
  } else {
    bottom_ = std::make_unique<ConjugateGradient>(bottom, context, reducer, halo_transport, false);
  }
  // A device bottom solve: the cycle is stream work only where its exchanges are too (exchanges_enqueue_only).
  const bool device_only = gathered_ ? gathered_->on_device() : dense_bottom_ && dense_bottom_->on_device();
  graph_ = std::make_unique<device::LaunchGraph>(launch == CycleLaunch::automatic && device_only);
}

Multigrid::~Multigrid() = default;

int Multigrid::gathered_level_count() const { return gathered_ ? gathered_->level_count() : 0; }

Int3 Multigrid::coarsest_cells() const {
  return gathered_ ? gathered_->cycles().coarsest_cells() : levels_.back().geometry.decomp.global.cells;
}

std::string Multigrid::describe() const {
  const auto cells = [](const Int3& n) {
    return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
  };
  const int levels = level_count() + std::max(gathered_level_count() - 1, 0);
  std::string text = levels == 1 ? "1 level of " + cells(coarsest_cells())
                                 : std::to_string(levels) + " levels to " + cells(coarsest_cells());
  if (gathered_) text += ", cycled whole on every rank from " + cells(levels_.back().geometry.decomp.global.cells);
  return text;
}

bool Multigrid::exchanges_enqueue_only() const {
  return std::all_of(levels_.begin(), levels_.end(), [](const Level& l) { return l.ghosts->enqueues_only(); });
}

bool Multigrid::cycles_replayed() const { return graph_ && graph_->active() && exchanges_enqueue_only(); }

void Multigrid::cycle(Field x, Field b, bool top_restricted) {
  ProfileRegion region("poisson::mg_cycle");
  require(!top_restricted || restricts_first(), "multigrid: a cycle with pre-smoothing cannot start restricted");
  const auto enqueue = [&] { visit(0, x, b, config_.cycle, top_restricted); };
  // The exchanges are built during the first cycle, which the graph runs directly in any case.
  if (!exchanges_enqueue_only()) return enqueue();
  graph_->run(x.data(), b.data(), top_restricted, enqueue);
}

bool Multigrid::restricts_first() const { return config_.pre_smooth == 0 && level_count() > 1; }

void Multigrid::restrict_top(Field x, Field b, Buffer sums, const parallel::Reducer& reducer) {
  require(level_count() > 1, "multigrid: restrict_top needs a coarse level");
  const auto& top = levels_[0];
  const auto& next = levels_[1].geometry;
  const auto needed = static_cast<std::size_t>(check_partial_count(x, b, top.geometry, next, top.factor));
  if (check_partials_.extent(0) < needed) check_partials_ = CheckPartials("mg::check_partials", needed);
  // With pre-smoothing the next cycle restricts afresh: the check only sums.
  const Field coarse_b = restricts_first() ? levels_[1].b : Field();
  restrict_residual_with_sums(coarse_b, x, b, top.geometry, next, top.factor, check_partials_, sums, reducer);
}

void Multigrid::cycle_as(Field x, Field b, config::CycleType type) {
  ProfileRegion region("poisson::mg_cycle");
  visit(0, x, b, type);
}

void Multigrid::apply(Field z, Field r) {
  Kokkos::deep_copy(ExecSpace(), z, Real(0));
  cycle(z, r);
}

void Multigrid::visit(int l, Field x, Field b, config::CycleType type, bool restricted, bool from_zero) {
  if (l + 1 == level_count()) {
    if (gathered_) {
      gathered_->cycle(x, b, type, from_zero);
    } else if (dense_bottom_) {
      dense_bottom_->solve(x, b);
      levels_[l].ghosts->fill(x);
    } else {
      StopCriteria stop{bottom_rtol, 0, bottom_max_iterations, 1};
      bottom_->solve(x, b, stop);
    }
    return;
  }
  auto& fine = levels_[l];
  auto& coarse = levels_[l + 1];
  Field current = x;  // the field that holds the iterate: x, or the level's twin after an odd number of fused sweeps
  if (!restricted) {
    current = smooth(l, x, x, b, false, false);
    restrict_residual(coarse.b, current, b, fine.geometry, coarse.geometry, fine.factor);
  }
  // A gathered level overwrites its x, ghosts included, from the whole level's.
  if (!gathered_ || l + 2 < level_count()) Kokkos::deep_copy(ExecSpace(), coarse.x, Real(0));
  const auto visits = coarse_visits(type);
  for (int v = 0; v < visits.count; ++v) visit(l + 1, coarse.x, coarse.b, visits.type[v], false, v == 0);
  prolong_add(current, coarse.x, fine.geometry, coarse.geometry, fine.factor);
  if (config_.smoother != config::SmootherType::red_black_gauss_seidel || config_.post_smooth == 0) {
    fine.ghosts->fill(current);
  } else if (!fine.passes_read_no_ghosts) {
    // The first colour reads the face ghosts of the corrected iterate: corrected in place, with no exchange.
    prolong_add_to_face_ghosts(current, coarse.x, fine.geometry, coarse.geometry, fine.factor);
  }
  smooth(l, x, current, b, true, true);
}

Field Multigrid::smooth(int l, Field x, Field from, Field b, bool after_correction, bool end_in_x) {
  auto& level = levels_[l];
  const int sweeps = after_correction ? config_.post_smooth : config_.pre_smooth;
  if (config_.smoother == config::SmootherType::chebyshev) {
    for (const auto& sweep : after_correction ? level.post_sweeps : level.pre_sweeps) {
      residual(level.r, x, b, level.geometry);
      chebyshev_correct(x, level.d, level.r, level.geometry, sweep.previous, sweep.residual);
      level.ghosts->fill(x);
    }
    return x;
  }
  Field current = from;
  for (int s = 0; s < sweeps; ++s) {
    if (config_.smoother == config::SmootherType::jacobi) {
      residual(level.r, current, b, level.geometry);
      jacobi_correct(current, level.r, level.geometry, jacobi_weight(level.geometry.decomp.global.dim));
      level.ghosts->fill(current);
      continue;
    }
    // The sweeps fold physical faces into the stencil: only the last colour needs the physical ghosts set after it.
    const bool last = s + 1 == sweeps;
    const bool in_x = current.data() == x.data();
    // A fused sweep moves the iterate to the other field: where it must end in x, the sweeps left must be even in
    // number from x and odd from the twin; otherwise this one runs in place.
    const bool lands = !end_in_x || ((sweeps - s) % 2 == 0) == in_x;
    if (level.twin.is_allocated() && lands) {
      Field out = in_x ? level.twin : x;
      fused_sweep(level, out, current, b, last);
      current = out;
      continue;
    }
    for (int c = 0; c < 2; ++c) {
      red_black_sweep(current, b, level.geometry, c, config_.relaxation);
      if (last && c == 1) {
        level.ghosts->fill(current);
      } else if (!level.passes_read_no_ghosts) {
        level.ghosts->exchange(current);
      }
    }
  }
  if (end_in_x && current.data() != x.data()) Kokkos::deep_copy(ExecSpace(), x, current);
  return end_in_x ? x : current;
}

void Multigrid::fused_sweep(Level& level, Field out, Field in, Field b, bool last) {
  fused_sweep_interior(out, in, b, level.geometry, 0, config_.relaxation);
  level.ghosts->exchange(out);
  sweep_shared_faces(out, in, b, level.geometry, 1, config_.relaxation);
  if (last) {
    level.ghosts->fill(out);
  } else {
    level.ghosts->exchange(out);
  }
}

}  // namespace eddy::solver
