#pragma once
// The two helpers of the device home's CUDA code (CUDA builds only): a runtime call checked, and the stream Kokkos
// enqueues its kernels on.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace eddy::device {

/// Throws std::runtime_error naming `call` where `result` is an error.
inline void check(cudaError_t result, const char* call) {
  if (result != cudaSuccess) throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(result));
}

/// The stream of the default execution space instance.
inline cudaStream_t compute_stream() { return Kokkos::DefaultExecutionSpace().cuda_stream(); }

}  // namespace eddy::device
#endif
