#include "device/launch_graph.hpp"

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace eddy::device {

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

void check(cudaError_t result, const char* call) {
  if (result != cudaSuccess) throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(result));
}

cudaStream_t compute_stream() { return Kokkos::DefaultExecutionSpace().cuda_stream(); }

}  // namespace
#endif

#if defined(KOKKOS_ENABLE_CUDA)
LaunchGraph::LaunchGraph(bool enabled) : enabled_(enabled) {}
#else
LaunchGraph::LaunchGraph(bool) : enabled_(false) {}
#endif

LaunchGraph::~LaunchGraph() {
#if defined(KOKKOS_ENABLE_CUDA)
  // A destructor cannot report failures; the graphs' work has been waited for by whoever read its results.
  for (const auto& r : recordings_) {
    if (r.graph != nullptr) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(r.graph));
  }
#endif
}

bool LaunchGraph::recording() {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  check(cudaStreamIsCapturing(compute_stream(), &status), "cudaStreamIsCapturing");
  return status != cudaStreamCaptureStatusNone;
#else
  return false;
#endif
}

void LaunchGraph::run(const void* first, const void* second, int variant, const std::function<void()>& enqueue) {
  // Under a Kokkos tool (core/kernel_timer.hpp, a profiler) every kernel is launched, and seen, one by one.
  if (!enabled_ || Kokkos::Tools::profileLibraryLoaded()) return enqueue();
  Recording* found = nullptr;
  for (auto& r : recordings_) {
    if (r.first == first && r.second == second && r.variant == variant) found = &r;
  }
  if (found == nullptr) {
    if (recordings_.size() >= max_recordings_) return enqueue();
    recordings_.push_back({first, second, variant});
    found = &recordings_.back();
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (found->graph != nullptr) {
    check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(found->graph), compute_stream()), "cudaGraphLaunch");
    return;
  }
#endif
  if (found->calls++ == 0) return enqueue();
  record(*found, enqueue);
}

void LaunchGraph::record(Recording& recording, const std::function<void()>& enqueue) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaStream_t stream = compute_stream();
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
  std::string failure;
  try {
    enqueue();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  if (failure.empty() && ended != cudaSuccess) failure = cudaGetErrorString(ended);
  cudaGraphExec_t exec = nullptr;
  if (failure.empty()) {
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    if (made != cudaSuccess) failure = cudaGetErrorString(made);
  }
  if (graph != nullptr) (void)cudaGraphDestroy(graph);
  if (!failure.empty()) {
    (void)cudaGetLastError();
    enabled_ = false;
    std::fprintf(stderr, "eddy: warning: launching kernels one by one (recording a CUDA graph failed: %s)\n",
                 failure.c_str());
    enqueue();
    return;
  }
  recording.graph = exec;
  check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
#else
  (void)recording;
  enqueue();
#endif
}

}  // namespace eddy::device
