// `eddy bench poisson`: one multigrid V-cycle, and a full solve to 1e-10 relative residual from zero, on a random
// mean-free right-hand side over n^3 cells with Neumann faces (the pressure problem of a closed box).
#include "bench/bench_options.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "parallel/reducer.hpp"
#include "solver/multigrid.hpp"
#include "solver/poisson_kernels.hpp"

#include <cstdio>

namespace eddy::bench {
namespace {

config::PoissonSolverType solver_type(const std::string& name) {
  if (name == "multigrid") return config::PoissonSolverType::multigrid;
  if (name == "mg_cg") return config::PoissonSolverType::mg_cg;
  if (name == "cg") return config::PoissonSolverType::cg;
  if (name == "jacobi") return config::PoissonSolverType::jacobi;
  throw Error("bench poisson: --solver must be multigrid, mg_cg, cg or jacobi, got '" + name + "'");
}

}  // namespace

int run_poisson_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const auto options = parse_options(args);
  const int n = int_option(options, "n", 128);
  const int reps = std::max(20, int_option(options, "reps", 20));
  const int solves = std::max(1, int_option(options, "solves", 5));
  const std::string solver_name = options.count("solver") ? options.at("solver") : "multigrid";
  parallel::Reducer reducer(context, config::CommBackend::automatic);

  grid::GlobalGrid global{3, {n, n, n}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  solver::PoissonProblem problem;
  problem.decomp = grid::decompose(global, context.comm());
  problem.shape = fields::local_shape(problem.decomp, 1);
  problem.spacing = {1.0 / n, 1.0 / n, 1.0 / n};
  problem.faces.fill(solver::PressureBoundary::neumann);
  const solver::PoissonLevel level{problem.decomp, problem.shape, problem.spacing, problem.faces};

  Field rhs = fields::make_field("bench::rhs", problem.shape), phi = fields::make_field("bench::phi", problem.shape);
  fill_random(rhs, context.rank());
  solver::subtract_constant(rhs, solver::global_sum(rhs, level, reducer) / level.global_cells());

  config::PoissonConfig config;
  config.solver = solver_type(solver_name);
  config.rtol = 1e-10;
  config.atol = 0;
  config.max_iterations = config.solver == config::PoissonSolverType::multigrid ? 100 : 5000;

  // One V-cycle: the cost that a warm-started projection step pays a few times.
  solver::Multigrid multigrid(level, context, reducer, config, problem.halo_backend);
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
  const double cycle_time = reducer.max(median(cycle_times));

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
    std::printf("poisson benchmark: %d^3 cells, Neumann faces, %d rank(s), %d multigrid levels\n", n, context.size(),
                multigrid.level_count());
    std::printf("%-36s %14s\n", "quantity", "value");
    std::printf("%-36s %14.4f\n", "V-cycle time [ms] (median)", 1e3 * cycle_time);
    std::printf("%-36s %14.3e\n", "V-cycle cells/s", unknowns / cycle_time);
    std::printf("%-36s %14s\n", "solver", solver->name().c_str());
    std::printf("%-36s %14d\n", "iterations to 1e-10", stats.iterations);
    std::printf("%-36s %14.3e\n", "final relative residual", stats.final_residual / stats.rhs_norm);
    std::printf("%-36s %14.4f\n", "solve time [ms] (median)", 1e3 * solve_time);
    std::printf("%-36s %14.3e\n", "unknowns/s", unknowns / solve_time);
  }
  return stats.converged ? 0 : 1;
}

}  // namespace eddy::bench
