#pragma once
// The one-line startup report of the parallel setup, e.g. "4 ranks as 2x2x1, halo: mpi, reductions: mpi, device:
// OpenMP (2 threads per rank)".
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"

#include <string>

namespace eddy::parallel {

/// Ranks, process grid, halo and reduction backends ("mpi" / "nccl") and this rank's execution device.
std::string describe(const Context& context, const grid::Decomposition& decomp, const std::string& halo_backend,
                     const std::string& reduction_backend);

/// The NCCL library's version ("2.21.5"), or "not built in" where this build has no NCCL.
std::string nccl_version();

}  // namespace eddy::parallel
