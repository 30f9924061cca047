#pragma once
// The end-of-run summary: where the time went, throughput, and (with several ranks) a verdict on scaling. Printed
// on rank 0 and written as summary.json (keys read by scripts/scaling.py and postprocess/report.py):
//   case, ranks, cells, local_cells_max, steps, wall_seconds, seconds_per_step, cell_updates_per_second,
//   cell_updates_per_second_per_rank, phase_seconds{}, phase_share{}, communication_share, poisson_solve_share,
//   poisson_communication_share, poisson_communication_timing, halo_backend, reduction_backend, device,
//   poisson_solver, poisson_iterations_per_step, stop_reason, final_time, final_step, imbalance, scaling_verdict,
//   latency_verdict ("" unless a GPU run is latency-bound, run/scaling_verdict.hpp),
//   phase_timing; with
//   `eddy run --kernel-times` also kernel_seconds{} and kernel_launches{} (rank 0's, by kernel label) and
//   kernel_seconds_slowest_rank{} (each of those kernels on the rank where it took longest).
// Phase seconds are the mean over ranks; wall_seconds is the slowest rank's. The phases are exclusive: poisson is the
// pressure solver's own work, poisson_halo and poisson_reduction its communication. communication_share is every
// halo exchange and reduction (velocity, diagnostics and pressure solve), waiting for other ranks included;
// poisson_solve_share the whole solve; poisson_communication_share its halo exchanges and reductions.
// poisson_communication_timing is "measured" where the solver's communication blocks the host (MPI). On GPUs (NCCL or
// peer) the transfers run asynchronously on the device: there it is "reductions_enqueue_only" with exact phase times
// (the halo exchanges are timed on the device, parallel/exchange_clock.hpp, CUDA graphs included; the NCCL reductions
// and the coarse gather count by their enqueueing, their transfers as poisson), and "enqueue_only" where they do not
// (every transfer counts as poisson, as do the exchanges inside V-cycles replayed as CUDA graphs).
// phase_timing is "exact" when every phase was charged its device work (the default; core/phase_timers.hpp) and
// "host_only" with output.exact_phase_times: false, where a phase's kernels still running at its end are charged to
// later phases.
#include "core/kernel_timer.hpp"
#include "core/phase_timers.hpp"
#include "grid/decomposition.hpp"
#include "io/json.hpp"
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::run {

/// What one rank measured over the run, and how the run was set up.
struct RunMeasurements {
  std::string case_name;
  long long steps = 0;  ///< steps taken by this invocation (a restart counts from its checkpoint)
  double wall_seconds = 0;
  PhaseTimers::Seconds phase_seconds{};
  std::string halo_backend, reduction_backend, poisson_solver, stop_reason;
  double final_time = 0;
  long long final_step = 0;
  bool exact_phase_times = true;     ///< the phase timers charged device work (output.exact_phase_times)
  long long poisson_iterations = 0;  ///< the pressure solver's iterations over those steps, every stage's solve
  io::JsonObject plan;               ///< the run's tuning plan (TuningPlan::json)
  double core_share = 1;             ///< CPU time of this process over the steps per thread and wall second
};

/// The summary, the same on every rank.
struct RunSummary {
  io::JsonObject json;
  std::string text;  ///< the console block
};

/// Combines the measurements of every rank (collective) into the summary.
RunSummary summarise_run(const RunMeasurements& local, const grid::Decomposition& decomp, parallel::Context& context);

/// Adds the kernel times of `eddy run --kernel-times` over `steps` steps and `wall_seconds`, rank 0's and the slowest
/// rank's, to the summary (collective).
void add_kernel_times(RunSummary& summary, const std::vector<KernelTime>& times, double wall_seconds, long long steps,
                      parallel::Context& context);

}  // namespace eddy::run
