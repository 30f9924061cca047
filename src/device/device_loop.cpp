#include "device/device_loop.hpp"

#include "device/cuda_calls.hpp"
#include "device/launch_graph.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace eddy::device {

#if defined(EDDY_CONDITIONAL_GRAPHS)
namespace {

// A graph of one conditional while node, run once at launch and then as long as the body sets the condition.
cudaGraph_t while_graph(cudaGraphConditionalHandle& condition, cudaGraph_t& body) {
  cudaGraph_t graph = nullptr;
  check(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  check(cudaGraphConditionalHandleCreate(&condition, graph, 1, cudaGraphCondAssignDefault),
        "cudaGraphConditionalHandleCreate");
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = condition;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
#if CUDART_VERSION >= 13000
  check(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params), "cudaGraphAddNode");
#else
  check(cudaGraphAddNode(&node, graph, nullptr, 0, &params), "cudaGraphAddNode");
#endif
  body = params.conditional.phGraph_out[0];
  return graph;
}

}  // namespace
#endif

#if defined(EDDY_CONDITIONAL_GRAPHS)
DeviceLoop::DeviceLoop(bool enabled) : enabled_(enabled), again_("device_loop::again") {}
#else
DeviceLoop::DeviceLoop(bool) : enabled_(false), again_("device_loop::again") {}
#endif

bool DeviceLoop::replays() const { return enabled_; }

bool DeviceLoop::graphs_available() {
#if defined(EDDY_CONDITIONAL_GRAPHS)
  return true;
#else
  return false;
#endif
}

void DeviceLoop::loop_on_host(const std::function<void(const LoopFlag&)>& body) {
  const LoopFlag flag{again_};
  auto again = Kokkos::create_mirror_view(Kokkos::HostSpace(), again_);
  do {
    body(flag);
    Kokkos::deep_copy(again, again_);
  } while (again() != 0);
}

void DeviceLoop::run(const void* first, const void* second, int variant, bool replayable,
                     const std::function<void(const LoopFlag&)>& body) {
  // Under a Kokkos tool (core/kernel_timer.hpp, a profiler) every kernel is launched, and seen, one by one.
  if (!enabled_ || !replayable || Kokkos::Tools::profileLibraryLoaded()) return loop_on_host(body);
  GraphRecordings::Entry* found = recordings_.find(first, second, variant);
  if (found == nullptr) return loop_on_host(body);
#if defined(EDDY_CONDITIONAL_GRAPHS)
  if (found->graph != nullptr) {
    check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(found->graph), compute_stream()), "cudaGraphLaunch");
    return;
  }
#endif
  if (found->calls++ == 0 || !record(*found, body)) loop_on_host(body);
}

bool DeviceLoop::record(GraphRecordings::Entry& recording, const std::function<void(const LoopFlag&)>& body) {
#if defined(EDDY_CONDITIONAL_GRAPHS)
  if (LaunchGraph::recording()) return false;
  const cudaStream_t stream = compute_stream();
  std::string failure;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  try {
    cudaGraphConditionalHandle condition = 0;
    cudaGraph_t pass = nullptr;
    graph = while_graph(condition, pass);
    check(cudaStreamBeginCaptureToGraph(stream, pass, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed),
          "cudaStreamBeginCaptureToGraph");
    try {
      body(LoopFlag{again_, static_cast<unsigned long long>(condition)});
    } catch (const std::exception& e) {
      failure = e.what();
    }
    const cudaError_t ended = cudaStreamEndCapture(stream, &pass);
    if (failure.empty() && ended != cudaSuccess) failure = cudaGetErrorString(ended);
    if (failure.empty()) check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  } catch (const std::exception& e) {
    if (failure.empty()) failure = e.what();
  }
  if (graph != nullptr) (void)cudaGraphDestroy(graph);
  if (!failure.empty()) {
    (void)cudaGetLastError();
    enabled_ = false;
    std::fprintf(stderr, "eddy: warning: iterating with a host check per pass (recording a CUDA graph failed: %s)\n",
                 failure.c_str());
    return false;
  }
  recording.graph = exec;
  check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  return true;
#else
  (void)recording;
  (void)body;
  return false;
#endif
}

}  // namespace eddy::device
