#include "run/scaling_verdict.hpp"

#include <cmath>
#include <cstdio>

namespace eddy::run {
namespace {

std::string percent(double share) { return std::to_string(static_cast<int>(std::lround(100 * share))) + "%"; }

std::string block_text(const ScalingFacts& f) {
  std::string text = std::to_string(f.local_cells[0]) + "x" + std::to_string(f.local_cells[1]);
  if (f.dimensions == 3) text += "x" + std::to_string(f.local_cells[2]);
  return text;
}

// Ghost cells exchanged per owned cell of the block (one layer on each side of each axis).
double surface_to_volume(const ScalingFacts& f) {
  double ratio = 0;
  for (int a = 0; a < f.dimensions; ++a) ratio += 2.0 / f.local_cells[a];
  return ratio;
}

// The verdict on halo exchanges, reductions (the velocity's, the diagnostics' and the pressure solver's) and balance.
std::string main_verdict(const ScalingFacts& f) {
  const std::string ranks = std::to_string(f.ranks) + " ranks";
  const std::string block = "the local grid (" + block_text(f) + ")";
  const double communication = f.communication_share();
  if (f.all_halo_share() >= halo_share_too_high) {
    char ratio[64];
    std::snprintf(ratio, sizeof(ratio), "%.0f ghost cells per 100 owned", 100 * surface_to_volume(f));
    return "halo exchange is " + percent(f.all_halo_share()) + " of the step (" + percent(f.poisson_halo_share) +
           " in the pressure solve): " + block + " is too small for " + ranks + " (" + ratio +
           "); use fewer ranks or a larger grid.";
  }
  if (f.all_reduction_share() >= reduction_share_too_high) {
    return "global reductions are " + percent(f.all_reduction_share()) + " of the step (" +
           percent(f.poisson_reduction_share) + " in the pressure solve): with " + block +
           " each step is too short to hide the latency of " + ranks + "; use fewer ranks or a larger grid.";
  }
  if (f.imbalance >= imbalance_too_high) {
    return "the ranks are unevenly loaded: " + percent(f.imbalance) +
           " of the step is spent waiting for the slowest rank; choose cells divisible by the process grid.";
  }
  if (communication < 0.1) {
    return "communication (halo + reductions) is " + percent(communication) + " of the step: " + block + " keeps " +
           ranks + " busy; this run scales well.";
  }
  return "communication (halo + reductions) is " + percent(communication) + " of the step: " + ranks +
         " are used acceptably; a larger local grid than " + block_text(f) + " would scale better.";
}

}  // namespace

ScalingFacts ScalingFacts::without_output() const {
  ScalingFacts f = *this;
  const double stepping = 1 - output_share;
  if (stepping <= 0) return f;
  for (double* share : {&f.halo_share, &f.reduction_share, &f.poisson_share, &f.poisson_halo_share,
                        &f.poisson_reduction_share, &f.imbalance}) {
    *share /= stepping;
  }
  f.output_share = 0;
  return f;
}

// Where the node's cores are shared: more threads than cores, or with other work (a rank got less CPU time than wall
// time for its threads; MPI waits poll, so they count as CPU time).
// Then no split of the grid explains the time, and the verdict says so first.
std::string machine_verdict(const ScalingFacts& f) {
  if (f.cores_on_node <= 0) return "";
  const int threads = f.ranks_on_node * (f.on_gpus ? 1 : f.threads_per_rank);
  const std::string cores = std::to_string(f.cores_on_node) + " cores";
  if (!f.on_gpus && threads > f.cores_on_node) {
    return "the node is oversubscribed: " + std::to_string(f.ranks_on_node) + " ranks x " +
           std::to_string(f.threads_per_rank) + " threads run on " + cores +
           ", so ranks wait for a core, not for each other; run at most one thread per core (fewer ranks, or "
           "OMP_NUM_THREADS). ";
  }
  if (!f.on_gpus && f.core_share < core_share_too_low) {
    return "the node's cores were shared: a rank ran on a core only " + percent(f.core_share) +
           " of the time, the rest waiting for other work on the node; time the run on an idle node, or with fewer "
           "ranks. ";
  }
  return "";
}

std::string scaling_verdict(const ScalingFacts& facts) {
  if (facts.ranks <= 1) return "";
  const ScalingFacts f = facts.without_output();
  std::string verdict = machine_verdict(f) + main_verdict(f);
  if (f.poisson_solve_share() >= poisson_share_dominant) {
    verdict += " The pressure solve is " + percent(f.poisson_solve_share()) + " of the step (" +
               percent(f.poisson_halo_share + f.poisson_reduction_share) +
               " in its halo exchanges and reductions): its scaling decides the run's.";
  }
  return verdict;
}

std::string latency_verdict(const ScalingFacts& f, double seconds_per_step) {
  const double cells = static_cast<double>(f.local_cells[0]) * f.local_cells[1] * f.local_cells[2];
  if (!f.on_gpus || cells >= latency_bound_cells || seconds_per_step <= 0) return "";
  char text[512];
  std::snprintf(text, sizeof(text),
                "latency-bound: %.3g cells per GPU take %.3f ms a step (%.1f ns per cell); below about %.2g cells "
                "per GPU a step costs about the same whatever the grid, kernel launches and host round trips setting "
                "its pace, not the GPU. A finer grid costs little more per step%s; a looser pressure.rtol or "
                "pressure.intermediate_rtol takes fewer V-cycles",
                cells, 1e3 * seconds_per_step, 1e9 * seconds_per_step / cells, latency_bound_cells,
                f.ranks > 1 ? ", and fewer GPUs run this grid about as fast" : "");
  return text;
}

}  // namespace eddy::run
