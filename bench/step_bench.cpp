// `eddy bench step`: the full time step (three Runge-Kutta stages, Wray's RK3 by default or the SSP RK3 with
// --scheme ssp_rk3, with a warm-started multigrid projection per stage) on a periodic 3D Taylor-Green vortex, or with
// --dim 2 on the 2D lid-driven cavity at Re = 1000 (walls on every side: the small research case whose steps are
// latency-bound on GPUs), in ns per cell per step, with the share of each phase and the device memory per cell. The
// solver tolerance (--rtol, default 1e-4) is the one the Taylor-Green flow needs: it moves the dissipation rate by a
// small fraction of the difference between grids of n and 2n cells (measured in tests/perf/RESULTS.md). --kernel-times
// adds the time of each kernel, fenced and timed alone, over as many steps again. The untimed steps (--warmup) keep out
// of the timed ones the first calls' costs and the first step, whose pressure guesses have no earlier step to
// extrapolate from (time/pressure_guess.hpp). On several ranks it also gives each rank's exposed exchanges and those of
// the slowest rank, which waits for the messages only, not for a slower neighbour.
#include "bench/bench_support.hpp"
#include "bench/benchmarks.hpp"
#include "config/load.hpp"
#include "config/names.hpp"
#include "config/print.hpp"
#include "core/kernel_timer.hpp"
#include "device/device_info.hpp"
#include "parallel/slowest_kernels.hpp"
#include "time/simulation.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace eddy::bench {
namespace {

using PhaseSums = std::array<double, static_cast<int>(Phase::count)>;

// The exchanges' share of each rank's step. A rank waits at an exchange for the messages in flight and for a slower
// neighbour: the rank with the most time outside communication waits only for the messages, so its share is the
// exchanges' cost, and the others' excess over it is the ranks' imbalance.
struct ExposedExchanges {
  std::vector<double> share;  // per rank: (halo + poisson_halo) / its phase total
  int slowest_rank = 0;       // the rank with the most time outside communication
  double waiting = 0;         // (the slowest rank's time outside communication - the mean's) / the mean phase total
};

ExposedExchanges exposed_exchanges(const PhaseSums& phase, parallel::Context& context) {
  const auto at = [&](const PhaseSums& p, Phase which) { return p[static_cast<int>(which)]; };
  PhaseSums mine = phase;
  std::vector<double> all(mine.size() * context.size());
  parallel::check_mpi(MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                                    static_cast<int>(mine.size()), MPI_DOUBLE, context.comm()),
                      "MPI_Allgather(bench step phases)");
  ExposedExchanges exposed;
  double most = -1, outside_sum = 0, total_sum = 0;
  for (int r = 0; r < context.size(); ++r) {
    PhaseSums p;
    std::copy_n(all.begin() + static_cast<long>(r * p.size()), p.size(), p.begin());
    const double total = std::accumulate(p.begin(), p.end(), 0.0);
    const double exchanges = at(p, Phase::halo) + at(p, Phase::poisson_halo);
    const double outside = total - exchanges - at(p, Phase::poisson_reduction) - at(p, Phase::reduction);
    exposed.share.push_back(total > 0 ? exchanges / total : 0);
    if (outside > most) {
      most = outside;
      exposed.slowest_rank = r;
    }
    outside_sum += outside;
    total_sum += total;
  }
  exposed.waiting = total_sum > 0 ? (most - outside_sum / context.size()) / (total_sum / context.size()) : 0;
  return exposed;
}

// A benchmark case: `max_steps` steps with no end time, the benchmark's solver settings, and no output but the run
// folder's own files.
config::Deck timed_case(config::Deck deck, long long max_steps, const config::PoissonConfig& pressure, int pair_planes,
                        const std::string& out_dir) {
  deck.time.end_time = 1e30;
  deck.time.max_steps = max_steps;
  deck.pressure = pressure;
  deck.tuning.pair_planes = pair_planes;
  deck.output.directory = out_dir;
  deck.output.overwrite = true;
  deck.output.interval_steps = 0;
  deck.output.interval_time = 0;
  deck.output.log_interval = 1000000;
  return deck;
}

// The Taylor-Green box [-pi, pi)^3 on n cells per axis, repeated along each axis as often as `cells` holds n: a weak
// scaling run solves copies of the same flow at the same spacing, so each rank's work and the solver's iteration
// counts match the one-rank run.
config::Deck taylor_green_deck(const Int3& cells, int n, long long max_steps, const config::PoissonConfig& pressure,
                               int pair_planes, const std::string& out_dir) {
  config::Deck deck;
  deck.name = "bench_step_taylor_green3d";
  deck.domain.dimensions = 3;
  deck.domain.cells = cells;
  const double pi = 3.14159265358979323846;
  deck.domain.length = {2 * pi * cells[0] / n, 2 * pi * cells[1] / n, 2 * pi * cells[2] / n};
  deck.domain.origin = {-pi, -pi, -pi};
  for (auto& face : deck.boundary.faces) face.type = config::BoundaryType::periodic;
  deck.physics.viscosity = 1.0 / 1600;
  deck.initial.type = config::InitialType::taylor_green;
  deck.time.adaptive = false;
  deck.time.dt = 0.25 * 2 * pi / n;  // advective CFL about 0.25 at |u| = 1
  return timed_case(deck, max_steps, pressure, pair_planes, out_dir);
}

// The lid-driven cavity at Re = 1000 on n x n cells (the embedded default deck with its Reynolds number raised), at a
// fixed step of CFL 0.5 for the lid's speed.
config::Deck cavity_deck(int n, long long max_steps, const config::PoissonConfig& pressure, int pair_planes,
                         const std::string& out_dir) {
  const std::string cells = std::to_string(n);
  config::Deck deck = config::load_default({"name=bench_step_cavity2d", "domain.cells=[" + cells + "," + cells + "]",
                                            "physics.reynolds=1000", "time.dt=" + config::format_real(0.5 / n)});
  return timed_case(deck, max_steps, pressure, pair_planes, out_dir);
}

}  // namespace

int run_step_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args,
                        {{"n", "256"},
                         {"dim", "3"},
                         {"steps", "10"},
                         {"warmup", "2"},
                         {"rtol", "1e-4"},
                         {"pre-smooth", std::to_string(config::PoissonConfig{}.pre_smooth)},
                         {"post-smooth", std::to_string(config::PoissonConfig{}.post_smooth)},
                         {"relaxation", config::format_real(config::PoissonConfig{}.relaxation)},
                         {"scheme", config::to_string(config::TimeConfig{}.scheme)},
                         {"weak", "", true},
                         {"no-overlap", "", true},
                         {"no-gather", "", true},
                         {"kernel-times", "", true},
                         {"pair_planes", "8"}},
                        "step");
  if (print_usage_if_asked(options, context)) return 0;
  const bool weak = options.given("weak");
  const int n = static_cast<int>(options.integer("n"));
  const int dim = static_cast<int>(options.integer("dim"));
  require(dim == 2 || dim == 3, "eddy bench step: --dim " + std::to_string(dim) + ": allowed: 2 (the cavity), 3");
  require(dim == 3 || !weak,
          "eddy bench step: --weak with --dim 2: the cavity has no copies to stack; weak scaling runs in 3D");
  const long long steps = options.integer("steps"), warmup = options.integer("warmup", 0);
  config::PoissonConfig pressure;
  pressure.solver = config::PoissonSolverType::multigrid;
  pressure.rtol = options.real("rtol", 0, 1);
  pressure.atol = 0;
  pressure.max_iterations = dim == 2 ? 100 : 20;  // the cavity's first steps from rest take more cycles
  pressure.pre_smooth = static_cast<int>(options.integer("pre-smooth", 0));
  pressure.post_smooth = static_cast<int>(options.integer("post-smooth", 0));
  pressure.relaxation = options.real("relaxation", 0, 2);
  pressure.gather_coarse_levels = !options.given("no-gather");  // every multigrid level split between the ranks
  require(pressure.pre_smooth + pressure.post_smooth >= 1,
          "eddy bench step: --pre-smooth " + std::to_string(pressure.pre_smooth) + " and --post-smooth " +
              std::to_string(pressure.post_smooth) + ": their sum must be >= 1 (a V-cycle must smooth)");
  const auto scheme = config::from_string<config::TimeScheme>(options.text("scheme"));
  require(
      scheme.has_value() && *scheme != config::TimeScheme::euler,
      "eddy bench step: --scheme '" + options.text("scheme") + "' is not a three-stage scheme; allowed: rk3, ssp_rk3");
  // Weak scaling stacks one box of n^3 cells per rank along z; strong scaling keeps n^3 (n^2) in total.
  const Int3 cells{n, n, dim == 2 ? 1 : (weak ? n * context.size() : n)};
  const std::string out_dir = "build/bench-step-" + std::to_string(context.size()) + "ranks";

  const double before = device::memory_in_use();
  const bool time_kernels = options.given("kernel-times");
  const long long max_steps = warmup + (time_kernels ? 4 : 3) * steps;
  config::Deck deck = dim == 2 ? cavity_deck(n, max_steps, pressure, options.pair_planes(), out_dir)
                               : taylor_green_deck(cells, n, max_steps, pressure, options.pair_planes(), out_dir);
  deck.parallel.overlap = !options.given("no-overlap");  // the halo exchange finished before the divergence
  deck.time.scheme = *scheme;
  time::Simulation sim(deck, context, time::RunOptions{"", true});
  ExecSpace().fence("bench::setup");
  const double state_bytes = device::memory_in_use() - before;
  sim.advance(warmup);
  ExecSpace().fence("bench::warmup");
  parallel::check_mpi(MPI_Barrier(context.comm()), "MPI_Barrier(bench step)");
  Kokkos::Timer timer;
  const long long taken = sim.advance(steps);
  ExecSpace().fence("bench::steps");
  double seconds = timer.seconds();
  parallel::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, context.comm()), "MPI_Allreduce");
  const auto& history = sim.history();
  const std::size_t timed_end = history.size();

  // What exact phase times cost: as many steps again in pairs, one with exact phase times and one with phase timers
  // that read the host clock only, each timed alone, so that both timings see the same stretch of the flow. Every
  // other pair runs the host-timed step first: the flow's V-cycles per step may alternate between steps.
  double in_turn[2] = {0, 0};  // exact, host-timed
  long long in_turn_taken[2] = {0, 0};
  std::vector<int> timing_of_step;  // 0 exact, 1 host-timed, per step in turn
  for (long long pair = 0; pair < steps; ++pair) {
    for (int turn = 0; turn < 2; ++turn) {
      const int host_timed = pair % 2 == 0 ? turn : 1 - turn;
      sim.set_exact_phase_times(host_timed == 0);
      parallel::check_mpi(MPI_Barrier(context.comm()), "MPI_Barrier(bench step)");
      timer.reset();
      const long long taken_now = sim.advance(1);
      ExecSpace().fence("bench::step_in_turn");
      in_turn[host_timed] += timer.seconds();
      in_turn_taken[host_timed] += taken_now;
      if (taken_now > 0) timing_of_step.push_back(host_timed);
    }
  }
  sim.set_exact_phase_times(true);
  parallel::check_mpi(MPI_Allreduce(MPI_IN_PLACE, in_turn, 2, MPI_DOUBLE, MPI_MAX, context.comm()), "MPI_Allreduce");

  // With --kernel-times, as many steps again with every kernel fenced and timed alone.
  std::vector<KernelTime> kernels;
  double kernel_wall = 0;
  long long kernel_steps = 0;
  if (time_kernels) {
    parallel::check_mpi(MPI_Barrier(context.comm()), "MPI_Barrier(bench step)");
    const KernelTimer kernel_timer;
    timer.reset();
    kernel_steps = sim.advance(steps);
    ExecSpace().fence("bench::steps_kernels_timed");
    kernel_wall = timer.seconds();
    kernels = kernel_timer.times();
  }
  const std::vector<double> slowest_kernels =
      time_kernels && context.size() > 1 ? parallel::slowest_rank_seconds(kernels, context) : std::vector<double>{};

  PhaseSums phase{};
  int cycles = 0, in_turn_cycles[2] = {0, 0};
  // The steps in turn follow the timed ones in the history; --kernel-times appends its own after them.
  for (std::size_t s = 0; s < timing_of_step.size(); ++s) {
    in_turn_cycles[timing_of_step[s]] += history[timed_end + s].poisson_iterations;
  }
  for (std::size_t s = timed_end - taken; s < timed_end; ++s) {
    for (int p = 0; p < static_cast<int>(Phase::count); ++p) phase[p] += history[s].phase_seconds[p];
    cycles += history[s].poisson_iterations;
  }
  const double phase_total = std::accumulate(phase.begin(), phase.end(), 0.0);
  const ExposedExchanges exposed = exposed_exchanges(phase, context);
  const double total_cells = static_cast<double>(cells[0]) * cells[1] * cells[2];
  const double local_cells = static_cast<double>(sim.decomposition().local_cell_count());
  const double ns_per_cell_step = seconds / taken / total_cells * 1e9;

  if (context.rank() == 0) {
    std::printf(
        "step benchmark: %s, %d x %d x %d cells (%s), %d rank(s), fp64, %s, multigrid V(%d,%d) "
        "relaxation %g rtol %.0e, overlap %s, coarse levels %s\n",
        dim == 2 ? "2D lid-driven cavity at Re 1000" : "3D Taylor-Green", cells[0], cells[1], cells[2],
        weak ? "weak: n^3 per rank" : (dim == 2 ? "strong: n^2 in total" : "strong: n^3 in total"), context.size(),
        options.text("scheme").c_str(), pressure.pre_smooth, pressure.post_smooth, pressure.relaxation, pressure.rtol,
        context.size() == 1     ? "none (one rank)"
        : deck.parallel.overlap ? "on"
                                : "off",
        context.size() == 1             ? "on one rank"
        : pressure.gather_coarse_levels ? "gathered when small"
                                        : "all split");
    std::printf("  %-40s %12s\n", "quantity", "value");
    std::printf("  %-40s %12.3f\n", "time per step [ms]", 1e3 * seconds / taken);
    std::printf("  %-40s %12.4f\n", "ns per cell per step (all ranks)", ns_per_cell_step);
    std::printf("  %-40s %12.4f\n", "ns per cell per step per rank", ns_per_cell_step * context.size());
    std::printf("  %-40s %12.3e\n", "cell updates per second", total_cells * taken / seconds);
    std::printf("  %-40s %12.2f\n", "V-cycles per step (3 stages)", static_cast<double>(cycles) / taken);
    const char* timing_names[2] = {"exact", "host-timed"};
    for (int t = 0; t < 2; ++t) {
      if (in_turn_taken[t] == 0) continue;
      std::printf("  %-40s %12.3f\n", ("time per step in turn, " + std::string(timing_names[t]) + " [ms]").c_str(),
                  1e3 * in_turn[t] / in_turn_taken[t]);
      std::printf("  %-40s %12.2f\n", ("V-cycles per step in turn, " + std::string(timing_names[t])).c_str(),
                  static_cast<double>(in_turn_cycles[t]) / in_turn_taken[t]);
    }
    if (state_bytes > 0) {
      std::printf("  %-40s %12.1f\n", "device bytes per cell (rank 0)", state_bytes / local_cells);
      std::printf("  %-40s %12.3e\n", "largest grid on one device [cells]",
                  device::memory_total() * 0.95 / (state_bytes / local_cells));
    }
    for (int p = 0; p < static_cast<int>(Phase::count); ++p) {
      std::printf("  share %-34s %11.1f%%\n", std::string(phase_name(static_cast<Phase>(p))).c_str(),
                  phase_total > 0 ? 100 * phase[p] / phase_total : 0.0);
    }
    if (context.size() > 1) {
      std::printf("exposed exchanges (halo + poisson_halo) per rank [%% of its step]:");
      for (double share : exposed.share) std::printf(" %.1f", 100 * share);
      std::printf(
          "\n  slowest rank %d (most time outside communication): %.1f%%; the ranks wait %.1f%% for it on "
          "average\n",
          exposed.slowest_rank, 100 * exposed.share[exposed.slowest_rank], 100 * exposed.waiting);
    }
    std::printf("tuning plan (rank 0): %s\n", sim.plan().describe().c_str());
    if (kernel_steps > 0) {
      std::printf("kernels of rank 0, each fenced and timed alone, over %lld more steps: %.3f ms per step\n",
                  kernel_steps, 1e3 * kernel_wall / kernel_steps);
      std::fputs(kernel_time_table(kernels, kernel_wall, kernel_steps, slowest_kernels).c_str(), stdout);
    }
  }
  return 0;
}

}  // namespace eddy::bench
