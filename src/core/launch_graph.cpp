#include "core/launch_graph.hpp"

#include "core/error.hpp"
#include "core/kernel_timer.hpp"

#include <cstdio>
#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace eddy {
namespace {

bool recording_now = false;  // a LaunchGraph is capturing the compute stream

#if defined(KOKKOS_ENABLE_CUDA)
void check(cudaError_t result, const char* call) {
  if (result != cudaSuccess) throw Error(std::string(call) + " failed: " + cudaGetErrorString(result));
}
#endif

}  // namespace

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

bool LaunchGraph::recording() { return recording_now; }

void LaunchGraph::run(const void* first, const void* second, int variant, const std::function<void()>& enqueue) {
  if (!enabled_ || KernelTimer::active()) return enqueue();
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
    check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(found->graph), ExecSpace().cuda_stream()), "cudaGraphLaunch");
    return;
  }
#endif
  if (found->calls++ == 0) return enqueue();
  record(*found, enqueue);
}

void LaunchGraph::record(Recording& recording, const std::function<void()>& enqueue) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaStream_t stream = ExecSpace().cuda_stream();
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
  std::string failure;
  recording_now = true;
  try {
    enqueue();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  recording_now = false;
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

}  // namespace eddy
