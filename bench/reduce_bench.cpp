// `eddy bench reduce`: latency of a global sum of V values on the device buffer, per backend available: R calls back
// to back with one fence at the end (what a solver iteration without host synchronisation pays), and with a fence
// after each call (what a host-side convergence check pays); for NCCL also R calls replayed from CUDA graphs (what a
// reduction inside a multigrid cycle pays, the cycle being one graph); plus the host scalar sum.
#include "bench/bench_support.hpp"
#include "bench/benchmarks.hpp"
#include "device/launch_graph.hpp"
#include "parallel/reducer.hpp"

#include <algorithm>
#include <cstdio>

namespace eddy::bench {
namespace {

/// Seconds per allreduce of `buffer` recorded into one CUDA graph of up to 100 calls and replayed reps / 100 times (at
/// least once), one fence at the end (median of `trials`, slowest rank); 0 where no graph could be recorded.
double in_graphs(const parallel::Reducer& reduce, Buffer buffer, int reps, int trials, MPI_Comm comm) {
  const int per_graph = std::min(reps, 100), graphs = std::max(1, reps / per_graph);
  device::LaunchGraph graph(true);
  const auto replay = [&] {
    for (int g = 0; g < graphs; ++g) {
      graph.run(buffer.data(), nullptr, 0, [&] {
        for (int r = 0; r < per_graph; ++r) reduce.allreduce(buffer, parallel::ReduceOp::max);
      });
    }
  };
  const auto seconds = time_reps(trials, 2, comm, replay);  // the first run records, the second launches
  int recorded = graph.active() ? 1 : 0;
  parallel::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &recorded, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce(recorded)");
  return recorded != 0 ? median_of_slowest(seconds, comm) / (graphs * per_graph) : 0.0;
}

}  // namespace

int run_reduce_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"reps", "1000"}, {"values", "1"}}, "reduce");
  if (print_usage_if_asked(options, context)) return 0;
  const int reps = static_cast<int>(options.integer("reps")), values = static_cast<int>(options.integer("values"));
  std::vector<config::CommBackend> backends{config::CommBackend::mpi};
  if (parallel::Context::nccl_available()) backends.push_back(config::CommBackend::nccl);

  if (context.rank() == 0) {
    std::printf("global reduction: %d ranks, %d value(s) per call, %d reps (median of the slowest rank)\n",
                context.size(), values, reps);
    std::printf("  %-44s %12s\n", "what", "per call [us]");
  }
  for (auto backend : backends) {
    parallel::Reducer reduce(context, parallel::choose_reduction_transport(backend));
    Buffer buffer("bench::reduce_values", values);
    Kokkos::deep_copy(buffer, 1.0);
    constexpr int trials = 7;
    const auto pipelined = time_reps(trials, 1, context.comm(), [&] {
      for (int r = 0; r < reps; ++r) reduce.allreduce(buffer, parallel::ReduceOp::max);
    });
    const double back_to_back = median_of_slowest(pipelined, context.comm()) / reps;
    const auto each = time_reps(reps, 10, context.comm(), [&] { reduce.allreduce(buffer, parallel::ReduceOp::max); });
    const double synced = median_of_slowest(each, context.comm());
    if (context.rank() == 0) {
      const std::string name = parallel::to_string(reduce.transport());
      std::printf("  %-44s %12.2f\n", ("device buffer, " + name + ", back to back, one fence").c_str(),
                  back_to_back * 1e6);
      std::printf("  %-44s %12.2f\n", ("device buffer, " + name + ", fence after each").c_str(), synced * 1e6);
    }
    if (reduce.uses_nccl()) {
      const double replayed = in_graphs(reduce, buffer, reps, trials, context.comm());
      if (replayed > 0 && context.rank() == 0) {
        std::printf("  %-44s %12.2f\n",
                    ("device buffer, " + parallel::to_string(reduce.transport()) + ", in a CUDA graph").c_str(),
                    replayed * 1e6);
      }
    }
  }
  parallel::Reducer host_reduce(context, parallel::Transport::mpi);
  Real sink = 0;
  const auto host = time_reps(reps, 10, context.comm(), [&] { sink += host_reduce.sum(1.0); });
  const double host_scalar = median_of_slowest(host, context.comm());
  if (context.rank() == 0) {
    std::printf("  %-44s %12.2f\n", "host scalar, mpi", host_scalar * 1e6);
  }
  return sink > 0 ? 0 : 1;
}

}  // namespace eddy::bench
