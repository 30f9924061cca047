#include "run/run_summary.hpp"

#include "parallel/exchange_clock.hpp"
#include "parallel/slowest_kernels.hpp"
#include "run/scaling_verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace eddy::run {
namespace {

constexpr int phases = PhaseTimers::count;

double phase(const PhaseTimers::Seconds& seconds, Phase p) { return seconds[static_cast<int>(p)]; }

std::string device_text() {
  std::string text = ExecSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  text += " (one GPU per rank)";
#else
  const int threads = ExecSpace().concurrency();
  text += " (" + std::to_string(threads) + (threads == 1 ? " thread" : " threads") + " per rank)";
#endif
  return text;
}

std::string line(const char* format, auto... values) {
  char text[256];
  std::snprintf(text, sizeof(text), format, values...);
  return text;
}

}  // namespace

RunSummary summarise_run(const RunMeasurements& local, const grid::Decomposition& decomp, parallel::Context& context) {
  const int ranks = context.size();
  // Per rank: phase seconds, wall seconds, local compute (work that needs no other rank), local cells.
  const double compute = phase(local.phase_seconds, Phase::advance) + phase(local.phase_seconds, Phase::boundary) +
                         phase(local.phase_seconds, Phase::projection);
  std::array<double, phases + 2> sums{}, maxima{};
  std::copy(local.phase_seconds.begin(), local.phase_seconds.end(), sums.begin());
  sums[phases] = compute;
  sums[phases + 1] = static_cast<double>(decomp.local_cell_count());
  maxima = sums;
  std::array<double, 1> wall{local.wall_seconds};
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), phases + 2, MPI_DOUBLE, MPI_SUM, context.comm());
  MPI_Allreduce(MPI_IN_PLACE, maxima.data(), phases + 2, MPI_DOUBLE, MPI_MAX, context.comm());
  MPI_Allreduce(MPI_IN_PLACE, wall.data(), 1, MPI_DOUBLE, MPI_MAX, context.comm());

  const double seconds = wall[0];
  const long long cells = decomp.global.total_cells();
  const double per_step = local.steps > 0 ? seconds / static_cast<double>(local.steps) : 0;
  const double iterations_per_step =
      local.steps > 0 ? static_cast<double>(local.poisson_iterations) / static_cast<double>(local.steps) : 0;
  const double updates = seconds > 0 ? static_cast<double>(cells) * static_cast<double>(local.steps) / seconds : 0;
  PhaseTimers::Seconds mean{};
  for (int p = 0; p < phases; ++p) mean[p] = sums[p] / ranks;
  auto share = [&](double s) { return seconds > 0 ? s / seconds : 0.0; };
  const double mean_compute = sums[phases] / ranks;
  const double imbalance = share(maxima[phases] - mean_compute);

  ScalingFacts facts;
  facts.ranks = ranks;
  facts.dimensions = decomp.global.dim;
  facts.local_cells = decomp.local_cells;
  facts.halo_share = share(phase(mean, Phase::halo));
  facts.reduction_share = share(phase(mean, Phase::reduction));
  facts.poisson_share = share(phase(mean, Phase::poisson));
  facts.poisson_halo_share = share(phase(mean, Phase::poisson_halo));
  facts.poisson_reduction_share = share(phase(mean, Phase::poisson_reduction));
  facts.imbalance = imbalance;
  facts.output_share = share(phase(mean, Phase::output));
  // The largest block decides the verdict's grid: take it from the rank with the most cells.
  struct {
    double cells;
    int rank;
  } mine{static_cast<double>(decomp.local_cell_count()), context.rank()};
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE_INT, MPI_MAXLOC, context.comm());
  MPI_Bcast(facts.local_cells.data(), 3, MPI_INT, mine.rank, context.comm());
  // The busiest node (its ranks, its cores) and the rank that got the least of a core.
  std::array<double, 3> node{static_cast<double>(parallel::node_rank_count(context.comm())),
                             static_cast<double>(std::thread::hardware_concurrency()), -local.core_share};
  MPI_Allreduce(MPI_IN_PLACE, node.data(), 3, MPI_DOUBLE, MPI_MAX, context.comm());
  facts.ranks_on_node = static_cast<int>(node[0]);
  facts.cores_on_node = static_cast<int>(node[1]);
  facts.core_share = -node[2];  // the least of any rank
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  facts.on_gpus = true;
#else
  facts.threads_per_rank = ExecSpace().concurrency();
#endif
  const std::string verdict = scaling_verdict(facts);
  const std::string latency = latency_verdict(facts, per_step);
  const double communication = facts.communication_share();
  const double poisson_communication = facts.poisson_halo_share + facts.poisson_reduction_share;
  // The solver's exchanges are measured where MPI blocks the host, or on the device clock with exact phase times; its
  // reductions where they go through MPI. NCCL reductions count by their enqueueing.
  const bool halo_measured =
      local.halo_backend == "mpi" || (local.exact_phase_times && parallel::ExchangeClock::measures());
  const bool reductions_measured = local.reduction_backend != "nccl";
  const char* communication_timing = !halo_measured         ? "enqueue_only"
                                     : !reductions_measured ? "reductions_enqueue_only"
                                                            : "measured";

  RunSummary summary;
  io::JsonObject phase_seconds, phase_share;
  for (int p = 0; p < phases; ++p) {
    const std::string name(phase_name(static_cast<Phase>(p)));
    phase_seconds.set(name, mean[p]);
    phase_share.set(name, share(mean[p]));
  }
  summary.json.set("case", local.case_name)
      .set("precision", std::string(precision_name))
      .set("ranks", ranks)
      .set("cells", cells)
      .set("local_cells_max", static_cast<long long>(maxima[phases + 1]))
      .set("steps", local.steps)
      .set("wall_seconds", seconds)
      .set("seconds_per_step", per_step)
      .set("cell_updates_per_second", updates)
      .set("cell_updates_per_second_per_rank", updates / ranks)
      .set("phase_seconds", phase_seconds)
      .set("phase_share", phase_share)
      .set("communication_share", communication)
      .set("poisson_solve_share", facts.poisson_solve_share())
      .set("poisson_communication_share", poisson_communication)
      .set("poisson_communication_timing", communication_timing)
      .set("imbalance", imbalance)
      .set("halo_backend", local.halo_backend)
      .set("reduction_backend", local.reduction_backend)
      .set("poisson_solver", local.poisson_solver)
      .set("poisson_iterations_per_step", iterations_per_step)
      .set("device", device_text())
      .set("plan", local.plan)
      .set("stop_reason", local.stop_reason)
      .set("final_time", local.final_time)
      .set("final_step", local.final_step)
      .set("scaling_verdict", verdict)
      .set("latency_verdict", latency)
      .set("machine", io::JsonObject()
                          .set("ranks_on_node", facts.ranks_on_node)
                          .set("threads_per_rank", facts.threads_per_rank)
                          .set("cores_on_node", facts.cores_on_node)
                          .set("core_share", facts.core_share))
      .set("phase_timing", local.exact_phase_times ? "exact" : "host_only");

  std::string& text = summary.text;
  text += line("run summary: %lld steps in %.3f s, %.3f ms/step, %.3e cell updates/s (%.3e per rank)\n", local.steps,
               seconds, 1e3 * per_step, updates, updates / ranks);
  double timed = 0;
  for (int p = 0; p < phases; ++p) {
    timed += mean[p];
    text += line("  %-17s %9.3f s  %5.1f %%\n", std::string(phase_name(static_cast<Phase>(p))).c_str(), mean[p],
                 100 * share(mean[p]));
  }
  text += line("  %-17s %9.3f s  %5.1f %%\n", "untimed", std::max(0.0, seconds - timed),
               100 * share(std::max(0.0, seconds - timed)));
  text += line(
      "  pressure solve %.1f %% of the run: compute %.1f %%, halo %.1f %%, reductions + coarse gather %.1f %%; "
      "%.2f %s iterations a step\n",
      100 * facts.poisson_solve_share(), 100 * facts.poisson_share, 100 * facts.poisson_halo_share,
      100 * facts.poisson_reduction_share, iterations_per_step, local.poisson_solver.c_str());
  if (!local.exact_phase_times) {
    text +=
        "  (output.exact_phase_times is false: phase times are the host's, and kernels still running at the end of "
        "a phase count in later phases)\n";
  }
  if (!halo_measured) {
    text +=
        "  (on GPUs the solver's communication runs asynchronously: its halo and reduction times are the host's "
        "part only, and the transfers, like the exchanges inside V-cycles replayed as CUDA graphs, count as its "
        "compute; --kernel-times times every exchange kernel by kernel)\n";
  } else if (!reductions_measured) {
    text +=
        "  (on GPUs the solver's halo exchanges are timed on the device, from each pack's start to its unpack's "
        "start, CUDA graphs included; its NCCL reductions and coarse gather count by their enqueueing, their "
        "transfers as its compute)\n";
  }
  if (ranks > 1) {
    text += line(
        "  communication (all halo exchanges + reductions, waiting included) %.1f %%; waiting for the slowest rank "
        "%.1f %%\n",
        100 * communication, 100 * imbalance);
    text += "  scaling: " + verdict + "\n";
  }
  if (!latency.empty()) text += "  " + latency + "\n";
  return summary;
}

void add_kernel_times(RunSummary& summary, const std::vector<KernelTime>& times, double wall_seconds, long long steps,
                      parallel::Context& context) {
  const std::vector<double> slowest = parallel::slowest_rank_seconds(times, context);
  io::JsonObject seconds, launches, on_slowest;
  for (std::size_t k = 0; k < times.size(); ++k) {
    seconds.set(times[k].label, times[k].seconds);
    launches.set(times[k].label, times[k].launches);
    if (k < slowest.size()) on_slowest.set(times[k].label, slowest[k]);
  }
  summary.json.set("kernel_seconds", seconds)
      .set("kernel_launches", launches)
      .set("kernel_seconds_slowest_rank", on_slowest);
  summary.text +=
      "kernels of rank 0, each fenced and timed alone (--kernel-times: the run is slower for the fences):\n";
  summary.text += kernel_time_table(times, wall_seconds, steps, context.size() > 1 ? slowest : std::vector<double>{});
}

}  // namespace eddy::run
