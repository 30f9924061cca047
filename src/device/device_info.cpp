#include "device/device_info.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace eddy::device {

double memory_in_use() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) return static_cast<double>(total - free);
#endif
  return -1;
}

double memory_total() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) return static_cast<double>(total);
#endif
  return -1;
}

// Seconds for a copy-engine copy of `bytes` from this rank's GPU to the next visible GPU (median of `reps`), or a
// negative value where there is no second GPU or no peer access.
double peer_copy_seconds(long long bytes, int reps) {
#if defined(KOKKOS_ENABLE_CUDA)
  int devices = 0, can = 0;
  const int here = Kokkos::DefaultExecutionSpace().cuda_device();
  if (bytes <= 0 || cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) return -1;
  const int there = (here + 1) % devices;
  if (cudaDeviceCanAccessPeer(&can, here, there) != cudaSuccess || !can) return -1;
  // Without peer access enabled the copy is staged through the host.
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(there, 0);
  if (enabled == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
  if (enabled != cudaSuccess && enabled != cudaErrorPeerAccessAlreadyEnabled) return -1;
  void *from = nullptr, *to = nullptr;
  cudaStream_t stream = nullptr;
  std::vector<double> seconds;
  bool ok = cudaSetDevice(there) == cudaSuccess && cudaMalloc(&to, bytes) == cudaSuccess;
  ok = cudaSetDevice(here) == cudaSuccess && ok && cudaMalloc(&from, bytes) == cudaSuccess &&
       cudaStreamCreate(&stream) == cudaSuccess;
  for (int r = -3; ok && r < reps; ++r) {
    Kokkos::Timer timer;
    ok = cudaMemcpyPeerAsync(to, there, from, here, bytes, stream) == cudaSuccess &&
         cudaStreamSynchronize(stream) == cudaSuccess;
    if (r >= 0) seconds.push_back(timer.seconds());
  }
  if (stream) (void)cudaStreamDestroy(stream);
  (void)cudaFree(from);
  (void)cudaSetDevice(there);
  (void)cudaFree(to);
  (void)cudaSetDevice(here);
  if (!ok || seconds.empty()) return -1;
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
#else
  (void)bytes;
  (void)reps;
  return -1;
#endif
}

}  // namespace eddy::device
