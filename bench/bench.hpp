#pragma once
// `eddy bench NAME [options]`: the performance benchmarks of tests/perf, built into the executable so they run
// wherever eddy runs. Each benchmark measures its floor (a streaming kernel of the same read/write mix) in the same
// run and prints the ratio.
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::bench {

/// Runs the benchmark named by args[0] with the remaining arguments; returns the exit code.
int run(const std::vector<std::string>& args, parallel::Context& context);

}  // namespace eddy::bench
