#pragma once
// Small helpers shared by the benchmarks: integer options, and timings reduced over ranks.
#include "core/error.hpp"

#include "parallel/context.hpp"

#include <Kokkos_Timer.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace eddy::bench {

/// Parses `--name value` pairs of integers (a default of 0 marks a 0/1 switch); throws eddy::Error on a name not in
/// `defaults` or a malformed value.
inline std::map<std::string, long long> int_options(const std::vector<std::string>& args,
                                                    std::map<std::string, long long> defaults,
                                                    const std::string& benchmark) {
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const auto found = defaults.find(args[i]);
    std::string known;
    for (const auto& [name, value] : defaults) known += " " + name + " (" + std::to_string(value) + ")";
    require(found != defaults.end() && i + 1 < args.size(),
            "eddy bench " + benchmark + ": bad option '" + args[i] + "'; options (defaults):" + known);
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(args[i + 1], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // Options whose default is 0 are switches (0 or 1); the others are counts or sizes (at least 1).
    const bool flag = found->second == 0;
    require(used == args[i + 1].size() && (flag ? value == 0 || value == 1 : value >= 1),
            "eddy bench " + benchmark + ": " + args[i] + (flag ? " is a switch: 0 or 1" : " needs a positive integer") +
                ", got '" + args[i + 1] + "'");
    found->second = value;
  }
  return defaults;
}

/// Median over repetitions of the slowest rank's time: each entry of `seconds` is reduced with max across `comm`.
inline double median_of_slowest(std::vector<double> seconds, MPI_Comm comm) {
  require(!seconds.empty(), "benchmark: no repetitions");
  parallel::check_mpi(
      MPI_Allreduce(MPI_IN_PLACE, seconds.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_MAX, comm),
      "MPI_Allreduce(benchmark times)");
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  return n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
}

/// Times `body` (fenced) `reps` times after `warmup` untimed calls; every rank starts each repetition together.
template <class Body>
std::vector<double> time_reps(int reps, int warmup, MPI_Comm comm, Body body) {
  for (int r = 0; r < warmup; ++r) body();
  ExecSpace().fence("bench::warmup");
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    parallel::check_mpi(MPI_Barrier(comm), "MPI_Barrier(bench)");
    Kokkos::Timer timer;
    body();
    ExecSpace().fence("bench::rep");
    seconds.push_back(timer.seconds());
  }
  return seconds;
}

}  // namespace eddy::bench
