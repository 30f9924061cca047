#pragma once
// Small helpers shared by the benchmarks: checked options, random fields, and timings reduced over ranks.
#include "core/error.hpp"
#include "grid/grid.hpp"

#include "grid/index_ranges.hpp"
#include "parallel/context.hpp"
#include "parallel/reducer.hpp"

#include <Kokkos_Random.hpp>
#include <Kokkos_Timer.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace eddy::bench {

/// One option of a benchmark: `--name value` with a default, or a switch (`--name` alone).
struct OptionSpec {
  std::string name;      ///< without the dashes
  std::string fallback;  ///< the default value (empty for a switch)
  bool is_switch = false;
};

/// A benchmark's command line, checked against the options it declares: an unknown name, a missing value or a
/// malformed number throws eddy::Error naming the option, the value and what is allowed. `--help` asks for usage().
class Options {
 public:
  Options(const std::vector<std::string>& args, std::vector<OptionSpec> specs, std::string benchmark)
      : specs_(std::move(specs)), benchmark_(std::move(benchmark)) {
    for (const auto& spec : specs_) values_[spec.name] = spec.fallback;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--help" || args[i] == "-h") {
        help_ = true;
        continue;
      }
      const OptionSpec* spec = find(args[i]);
      require(spec != nullptr, "eddy bench " + benchmark_ + ": unknown option '" + args[i] + "'; " + usage());
      if (spec->is_switch) {
        values_[spec->name] = "1";
        continue;
      }
      require(i + 1 < args.size(), "eddy bench " + benchmark_ + ": " + args[i] + " needs a value; " + usage());
      values_[spec->name] = args[++i];
    }
  }

  /// True when --help was given.
  bool help() const { return help_; }

  /// The command line with every option and its default.
  std::string usage() const {
    std::string text = "usage: eddy bench " + benchmark_;
    for (const auto& spec : specs_) {
      text += spec.is_switch ? " [--" + spec.name + "]" : " [--" + spec.name + " " + spec.fallback + "]";
    }
    return text;
  }

  /// Option --pair_planes: the longest column of the GPU pair loops (tuning.pair_planes), an even 2..1024.
  int pair_planes() const {
    const long long planes = integer("pair_planes", 2);
    require(planes <= 1024 && planes % 2 == 0, "eddy bench " + benchmark_ +
                                                   ": --pair_planes needs an even number from 2 to 1024, got " +
                                                   std::to_string(planes));
    return static_cast<int>(planes);
  }

  /// Option `name` as an integer of at least `minimum`.
  long long integer(const std::string& name, long long minimum = 1) const {
    const std::string& value = text(name);
    std::size_t used = 0;
    long long number = 0;
    try {
      number = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    require(used == value.size() && !value.empty() && number >= minimum,
            "eddy bench " + benchmark_ + ": --" + name + " needs an integer of at least " + std::to_string(minimum) +
                ", got '" + value + "'");
    return number;
  }

  /// Option `name` as a number strictly between `lower` and `upper`.
  double real(const std::string& name, double lower, double upper) const {
    const std::string& value = text(name);
    std::size_t used = 0;
    double number = 0;
    try {
      number = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    require(used == value.size() && !value.empty() && number > lower && number < upper,
            "eddy bench " + benchmark_ + ": --" + name + " needs a number between " + std::to_string(lower) + " and " +
                std::to_string(upper) + " (exclusive), got '" + value + "'");
    return number;
  }

  /// Option `name` as given (or its default).
  const std::string& text(const std::string& name) const { return values_.at(name); }

  /// Whether switch `name` was given.
  bool given(const std::string& name) const { return values_.at(name) == "1"; }

 private:
  const OptionSpec* find(const std::string& arg) const {
    if (arg.rfind("--", 0) != 0) return nullptr;
    for (const auto& spec : specs_) {
      if (arg.compare(2, std::string::npos, spec.name) == 0) return &spec;
    }
    return nullptr;
  }

  std::vector<OptionSpec> specs_;
  std::string benchmark_;
  std::map<std::string, std::string> values_;
  bool help_ = false;
};

/// Prints the usage on rank 0 when --help was given; the benchmark then returns 0 without running.
inline bool print_usage_if_asked(const Options& options, const parallel::Context& context) {
  if (!options.help()) return false;
  if (context.rank() == 0) std::printf("%s\n", options.usage().c_str());
  return true;
}

/// The unit cube of n^3 cells, periodic along every axis: the box the kernel benchmarks time their stencils on.
inline grid::GlobalGrid periodic_unit_cube(int n) { return {3, {n, n, n}, {1, 1, 1}, {0, 0, 0}, {true, true, true}}; }

/// Fills a view with uniform random values in [-1, 1] (different on each rank).
template <class View>
void fill_random(View view, int rank) {
  Kokkos::Random_XorShift64_Pool<ExecSpace> pool(12345 + 7919ull * rank);
  Kokkos::fill_random(view, pool, Real(-1), Real(1));
}

/// Median of a sample.
inline double median(std::vector<double> values) {
  require(!values.empty(), "benchmark: no repetitions");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// Median over repetitions of the slowest rank's time: each entry of `seconds` is reduced with max across `comm`.
inline double median_of_slowest(std::vector<double> seconds, MPI_Comm comm) {
  require(!seconds.empty(), "benchmark: no repetitions");
  parallel::check_mpi(
      MPI_Allreduce(MPI_IN_PLACE, seconds.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_MAX, comm),
      "MPI_Allreduce(benchmark times)");
  return median(std::move(seconds));
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

/// Median over `reps` fenced runs of one kernel (after three untimed ones), the slowest rank's.
inline double time_kernel(const std::function<void()>& kernel, int reps, const parallel::Reducer& reducer) {
  for (int w = 0; w < 3; ++w) kernel();
  Kokkos::fence("bench::warm_up");
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer timer;
    kernel();
    Kokkos::fence("bench::rep");
    times.push_back(timer.seconds());
  }
  return reducer.max(median(times));
}

/// Largest |a - b| over two fields of one shape, ghosts included (this rank's).
inline Real max_difference(Field a, Field b) {
  Real diff = 0;
  Kokkos::parallel_reduce(
      "bench::max_difference", grid::box({0, 0, 0}, {int(a.extent(0)), int(a.extent(1)), int(a.extent(2))}),
      KOKKOS_LAMBDA(int i, int j, int k, Real& d) {
        const Real e = Kokkos::fabs(a(i, j, k) - b(i, j, k));
        if (e > d) d = e;
      },
      Kokkos::Max<Real>(diff));
  return diff;
}

}  // namespace eddy::bench
