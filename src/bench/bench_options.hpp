#pragma once
// Small helpers shared by the Poisson and stencil benchmarks: `--key value` options, random fields, medians.
#include "core/error.hpp"
#include "core/types.hpp"

#include <Kokkos_Random.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace eddy::bench {

/// `--key value` pairs; a leading word without dashes (the benchmark name) is skipped.
inline std::map<std::string, std::string> parse_options(const std::vector<std::string>& args) {
  std::map<std::string, std::string> options;
  std::size_t i = (!args.empty() && args[0].rfind("--", 0) != 0) ? 1 : 0;
  for (; i < args.size(); i += 2) {
    require(args[i].rfind("--", 0) == 0 && i + 1 < args.size(),
            "bench: expected '--option value', got '" + args[i] + "'");
    options[args[i].substr(2)] = args[i + 1];
  }
  return options;
}

/// The integer option `key`, or `fallback`.
inline int int_option(const std::map<std::string, std::string>& options, const std::string& key, int fallback) {
  const auto it = options.find(key);
  return it == options.end() ? fallback : std::stoi(it->second);
}

/// Fills a view with uniform random values in [-1, 1] (different on each rank).
template <class View>
void fill_random(View view, int rank) {
  Kokkos::Random_XorShift64_Pool<ExecSpace> pool(12345 + 7919ull * rank);
  Kokkos::fill_random(view, pool, Real(-1), Real(1));
}

/// Median of a sample.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace eddy::bench
