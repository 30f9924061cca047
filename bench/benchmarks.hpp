#pragma once
// The benchmarks `eddy bench NAME` dispatches to; each takes the arguments after NAME and returns an exit code.
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::bench {

/// The step's kernels outside the Poisson solver against streams of their mix: `eddy bench flow [--n N] [--reps R]`.
int run_flow_bench(const std::vector<std::string>& args, parallel::Context& context);
/// Halo exchange time and bandwidth: `eddy bench halo [--n N] [--fields F] [--width W] [--reps R]`.
int run_halo_bench(const std::vector<std::string>& args, parallel::Context& context);
/// Global scalar reduction latency, pipelined and host-synchronised: `eddy bench reduce [--reps R] [--values V]`.
int run_reduce_bench(const std::vector<std::string>& args, parallel::Context& context);
/// `eddy bench step [--n N] [--steps S] [--warmup W] [--weak]`: the full 3D time step in ns per cell per step.
int run_step_bench(const std::vector<std::string>& args, parallel::Context& context);

}  // namespace eddy::bench
