#include "bench/bench.hpp"

#include "bench/benchmarks.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "core/error.hpp"

namespace eddy::bench {
namespace {

struct Entry {
  const char* name;
  int (*run)(const std::vector<std::string>&, parallel::Context&);
};

// One line per benchmark.
constexpr Entry benchmarks[] = {
    {"halo", run_halo_bench},       {"reduce", run_reduce_bench}, {"poisson", run_poisson_bench},
    {"stencil", run_stencil_bench}, {"flow", run_flow_bench},     {"step", run_step_bench},
};

}  // namespace

int run(const std::vector<std::string>& args, parallel::Context& context) {
  std::string known;
  for (const auto& entry : benchmarks) known += std::string(known.empty() ? "" : ", ") + entry.name;
  require(!args.empty(), "eddy bench: name a benchmark (" + known + ")");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& entry : benchmarks) {
    if (args[0] == entry.name) return entry.run(rest, context);
  }
  throw Error("eddy bench: unknown benchmark '" + args[0] + "'; known: " + known);
}

}  // namespace eddy::bench
