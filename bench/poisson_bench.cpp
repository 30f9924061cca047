// `eddy bench poisson`: one multigrid V-cycle, and a full solve to 1e-10 relative residual from zero, on a random
// mean-free right-hand side over n^3 cells (n^2 with --dim 2) with Neumann faces (the pressure problem of a closed
// box).
#include "bench/bench_support.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "config/names.hpp"
#include "config/print.hpp"
#include "config/suggest.hpp"
#include "parallel/reducer.hpp"
#include "solver/level_sums.hpp"
#include "solver/multigrid.hpp"
#include "solver/red_black.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace eddy::bench {
namespace {

/// Option `key` spelled as in the deck's enum names.
template <class Enum>
Enum enum_option(const Options& options, const std::string& key) {
  const auto value = config::from_string<Enum>(options.text(key));
  if (!value) {
    throw Error("eddy bench poisson: --" + key + " must be one of " +
                config::join_words(config::allowed_names<Enum>()) + ", got '" + options.text(key) + "'");
  }
  return *value;
}

}  // namespace

int run_poisson_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const config::PoissonConfig defaults;
  const Options options(args,
                        {{"n", "128"},
                         {"dim", "3"},
                         {"reps", "20"},
                         {"solves", "5"},
                         {"solver", config::to_string(config::PoissonSolverType::multigrid)},
                         {"smoother", config::to_string(defaults.smoother)},
                         {"pre_smooth", std::to_string(defaults.pre_smooth)},
                         {"post_smooth", std::to_string(defaults.post_smooth)},
                         {"relaxation", config::format_real(defaults.relaxation)},
                         {"pair_planes", "8"}},
                        "poisson");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n", 4));
  const int dim = static_cast<int>(options.integer("dim", 2));
  require(dim == 2 || dim == 3, "eddy bench poisson: --dim must be 2 or 3, got " + std::to_string(dim));
  const int reps = static_cast<int>(options.integer("reps"));
  const int solves = static_cast<int>(options.integer("solves"));
  parallel::Reducer reducer(context, parallel::choose_reduction_transport());

  const int nz = dim == 2 ? 1 : n;
  grid::GlobalGrid global{dim, {n, n, nz}, {1, 1, 1}, {0, 0, 0}, {false, false, dim == 2}};
  solver::PoissonProblem problem;
  problem.decomp = grid::decompose(global, context.comm());
  problem.shape = fields::local_shape(problem.decomp, 1, options.pair_planes());
  problem.spacing = {Real(1.0 / n), Real(1.0 / n), Real(1.0 / nz)};
  problem.faces.fill(solver::PressureBoundary::neumann);
  if (dim == 2) problem.faces[4] = problem.faces[5] = solver::PressureBoundary::periodic;
  const solver::PoissonLevel level{problem.decomp, problem.shape, problem.spacing, problem.faces};

  Field rhs = fields::make_field("bench::rhs", problem.shape), phi = fields::make_field("bench::phi", problem.shape);
  fill_random(rhs, context.rank());
  solver::subtract_constant(rhs, solver::global_sum(rhs, level, reducer) / level.global_cells());

  config::PoissonConfig config;
  config.solver = enum_option<config::PoissonSolverType>(options, "solver");
  config.smoother = enum_option<config::SmootherType>(options, "smoother");
  config.pre_smooth = static_cast<int>(options.integer("pre_smooth", 0));
  config.post_smooth = static_cast<int>(options.integer("post_smooth", 0));
  config.relaxation = options.real("relaxation", 0, 2);
  config.rtol = 1e-10;
  config.atol = 0;
  config.max_iterations = config.solver == config::PoissonSolverType::multigrid ? 100 : 5000;

  // One V-cycle: the cost that a warm-started projection step pays a few times. With red-black smoothing, also with
  // the sweeps as colour passes where the fused sweep is the default (the same iterates, another kernel form), and
  // with every kernel launched from the host where cycles replay as a CUDA graph (the launch overhead).
  struct CycleTiming {
    double seconds = 0;
    int levels = 0;
    bool replayed = false;
  };
  const auto time_cycle = [&](solver::SweepForm sweeps, solver::CycleLaunch launch) {
    solver::Multigrid multigrid(level, context, reducer, config, problem.halo_transport, sweeps, launch);
    Kokkos::deep_copy(phi, Real(0));
    multigrid.top_ghosts().fill(phi);
    for (int w = 0; w < 2; ++w) multigrid.cycle(phi, rhs);
    Kokkos::fence("bench::warm_up");
    std::vector<double> cycle_times;
    for (int r = 0; r < reps; ++r) {
      Kokkos::Timer timer;
      multigrid.cycle(phi, rhs);
      Kokkos::fence("bench::cycle");
      cycle_times.push_back(timer.seconds());
    }
    return CycleTiming{reducer.max(median(cycle_times)), multigrid.level_count(), multigrid.cycles_replayed()};
  };
  const auto cycle = time_cycle(solver::SweepForm::automatic, solver::CycleLaunch::automatic);
  const bool compare_passes =
      config.smoother == config::SmootherType::red_black_gauss_seidel && solver::fused_sweep_pays;
  const double passes_cycle_time =
      compare_passes ? time_cycle(solver::SweepForm::colour_passes, solver::CycleLaunch::automatic).seconds : 0;
  const double direct_cycle_time =
      cycle.replayed ? time_cycle(solver::SweepForm::automatic, solver::CycleLaunch::kernel_by_kernel).seconds : 0;
  const double cycle_time = cycle.seconds;
  const int levels = cycle.levels;

  // Full solves from zero.
  auto solver = solver::make_poisson_solver(config, problem, context, reducer);
  std::vector<double> solve_times;
  solver::PoissonStats stats;
  for (int s = 0; s <= solves; ++s) {
    Kokkos::deep_copy(phi, Real(0));
    Kokkos::fence("bench::reset");
    Kokkos::Timer timer;
    stats = solver->solve(phi, rhs);
    Kokkos::fence("bench::solve");
    if (s > 0) solve_times.push_back(timer.seconds());  // the first solve is the warm-up
  }
  const double solve_time = reducer.max(median(solve_times));
  const double unknowns = static_cast<double>(global.total_cells());

  if (context.rank() == 0) {
    std::printf(
        "poisson benchmark: %d^%d cells, Neumann faces, %d rank(s), %d multigrid levels, %s V(%d,%d), relaxation %g\n",
        n, dim, context.size(), levels, config::to_string(config.smoother).c_str(), config.pre_smooth,
        config.post_smooth, config.relaxation);
    std::printf("pair loops: columns of up to %d planes\n", level.shape.pair_planes);
    std::printf("%-36s %14s\n", "quantity", "value");
    std::printf("%-36s %14.4f\n", "V-cycle time [ms] (median)", 1e3 * cycle_time);
    std::printf("%-36s %14.3e\n", "V-cycle cells/s", unknowns / cycle_time);
    if (compare_passes) std::printf("%-36s %14.4f\n", "V-cycle, colour-pass sweeps [ms]", 1e3 * passes_cycle_time);
    if (cycle.replayed) std::printf("%-36s %14.4f\n", "V-cycle, one launch per kernel [ms]", 1e3 * direct_cycle_time);
    std::printf("%-36s %14s\n", "solver", solver->name().c_str());
    std::printf("%-36s %14d\n", "iterations to 1e-10", stats.iterations);
    std::printf("%-36s %14.3e\n", "final relative residual", stats.final_residual / stats.rhs_norm);
    std::printf("%-36s %14.3f\n", "mean residual factor per iteration",
                std::pow(stats.final_residual / stats.rhs_norm, 1.0 / std::max(stats.iterations, 1)));
    std::printf("%-36s %14.4f\n", "solve time [ms] (median)", 1e3 * solve_time);
    std::printf("%-36s %14.3e\n", "unknowns/s", unknowns / solve_time);
  }
  return stats.converged ? 0 : 1;
}

}  // namespace eddy::bench
