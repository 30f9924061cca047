#pragma once
// `eddy bench poisson` and `eddy bench stencil`: the pressure solver and its 7-point stencil, each against a
// streaming floor measured in the same run.
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::bench {

/// Times one multigrid V-cycle and a solve to 1e-10 of a random mean-free right-hand side (options: --n, --solver,
/// --reps, --solves); prints a table on rank 0 and returns the exit code.
int run_poisson_bench(const std::vector<std::string>& args, parallel::Context& context);

/// Times the residual, the Laplacian apply, the multigrid transfers and a red-black sweep against streaming kernels of
/// the same mix (options: --n, --reps); prints bytes moved, GB/s and the ratio to the floor on rank 0.
int run_stencil_bench(const std::vector<std::string>& args, parallel::Context& context);

}  // namespace eddy::bench
