#pragma once
// The benchmarks `eddy bench NAME` dispatches to; each takes the arguments after NAME and returns an exit code.
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::bench {

/// Halo exchange time and bandwidth: `eddy bench halo [--n N] [--fields F] [--width W] [--reps R]`.
int run_halo_bench(const std::vector<std::string>& args, parallel::Context& context);
/// Global scalar reduction latency, pipelined and host-synchronised: `eddy bench reduce [--reps R] [--values V]`.
int run_reduce_bench(const std::vector<std::string>& args, parallel::Context& context);

}  // namespace eddy::bench
