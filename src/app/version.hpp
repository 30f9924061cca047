#pragma once
// `eddy --version`: what this binary was built with, for bug reports and run logs.
#include <string>

namespace eddy::app {

/// Versions of eddy, Kokkos (backends), MPI, NCCL and HDF5, one per line; callable before MPI_Init.
std::string version_report();

}  // namespace eddy::app
