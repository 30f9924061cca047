#pragma once
// Error checks for NCCL and CUDA calls (GPU builds with NCCL only).
#ifdef EDDY_HAVE_NCCL
#include "core/types.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

namespace eddy::parallel {

/// Throws eddy::Error naming the rank, the call and NCCL's message when `result` is not ncclSuccess.
void check_nccl(ncclResult_t result, const char* call);
/// Throws eddy::Error naming the rank, the call and CUDA's message when `result` is not cudaSuccess.
void check_cuda(cudaError_t result, const char* call);

/// NCCL's datatype of Real (the build's precision).
inline constexpr ncclDataType_t nccl_real = sizeof(Real) == sizeof(float) ? ncclFloat : ncclDouble;

}  // namespace eddy::parallel
#endif
