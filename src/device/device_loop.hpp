#pragma once
// A loop whose body is device work and whose condition a kernel of that body decides, so that an iterative solve
// needs no host round trip per iteration. Where it can (CUDA 12.4 and later, the body only enqueuing stream work, no
// Kokkos tool watching), the loop is recorded once per key as a CUDA graph holding one conditional while node, and each
// later run is one graph launch: the GPU repeats the body until a pass clears the flag. Elsewhere the host runs the
// body and reads the flag after each pass; the passes, their order and their results are the same.
#include "device/graph_recordings.hpp"

#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#if CUDART_VERSION >= 12040
#define EDDY_CONDITIONAL_GRAPHS 1  // conditional while nodes built by stream capture
#endif
#endif
#include <functional>
#include <vector>

namespace eddy::device {

/// What the deciding kernel of a loop's body sets: whether the body runs again.
struct LoopFlag {
  Kokkos::View<int, Kokkos::DefaultExecutionSpace::memory_space> again;
  unsigned long long graph_condition = 0;  ///< the conditional node's handle while the body is recorded, else 0

  /// Called by one thread of the body's last kernel.
  KOKKOS_INLINE_FUNCTION void set(bool more) const {
    again() = more ? 1 : 0;
#if defined(EDDY_CONDITIONAL_GRAPHS)
    KOKKOS_IF_ON_DEVICE((if (graph_condition != 0) cudaGraphSetConditional(graph_condition, more ? 1u : 0u);))
#endif
  }
};

class DeviceLoop {
 public:
  /// `enabled`: record and replay loops as graphs where the build can; otherwise every run loops on the host.
  explicit DeviceLoop(bool enabled);

  /// Runs `body` at least once and again while its last pass set the flag. The key (the addresses of the fields it
  /// works on and a variant of the work) names the recording; `replayable`: this body only enqueues stream work, the
  /// same for the same key every time. A key's first replayable run loops on the host, its second is recorded.
  void run(const void* first, const void* second, int variant, bool replayable,
           const std::function<void(const LoopFlag&)>& body);
  /// True where runs may be replayed as graphs (a CUDA build of 12.4 or later, recording not failed).
  bool replays() const;
  /// True where this build can replay loops as graphs (CUDA 12.4 or later).
  static bool graphs_available();

 private:
  void loop_on_host(const std::function<void(const LoopFlag&)>& body);
  bool record(GraphRecordings::Entry& recording, const std::function<void(const LoopFlag&)>& body);

  bool enabled_;
  Kokkos::View<int, Kokkos::DefaultExecutionSpace::memory_space> again_;
  GraphRecordings recordings_;
};

}  // namespace eddy::device
