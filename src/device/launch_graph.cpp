#include "device/launch_graph.hpp"

#include "device/cuda_calls.hpp"

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace eddy::device {

#if defined(KOKKOS_ENABLE_CUDA)
LaunchGraph::LaunchGraph(bool enabled) : enabled_(enabled) {}
#else
LaunchGraph::LaunchGraph(bool) : enabled_(false) {}
#endif

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
  // Under a Kokkos tool (core/kernel_timer.hpp, a profiler) every kernel is launched, and seen, one by one. Inside a
  // recording of a larger graph (device/device_loop.hpp) the work is enqueued into that one.
  if (!enabled_ || Kokkos::Tools::profileLibraryLoaded() || recording()) return enqueue();
  GraphRecordings::Entry* found = recordings_.find(first, second, variant);
  if (found == nullptr) return enqueue();
#if defined(KOKKOS_ENABLE_CUDA)
  if (found->graph != nullptr) {
    check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(found->graph), compute_stream()), "cudaGraphLaunch");
    return;
  }
#endif
  if (found->calls++ == 0) return enqueue();
  record(*found, enqueue);
}

void LaunchGraph::record(GraphRecordings::Entry& recording, const std::function<void()>& enqueue) {
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
