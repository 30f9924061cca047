#pragma once
// Replays the device work of a repeated call as one CUDA graph. A multigrid cycle on a small grid is a few dozen short
// kernels, so the host's launches, not the GPU, set its pace; recorded once, the whole cycle goes to the GPU in one
// launch. Recording needs the call to enqueue only kernels and asynchronous copies on the default execution space
// instance, with no host synchronisation, and to enqueue the same work every time for the same key. Without CUDA, after
// a recording failed (a warning says why), or while a Kokkos tool watches the kernels (core/kernel_timer.hpp, a
// profiler), the call runs as it is.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <functional>
#include <vector>

namespace eddy::device {

class LaunchGraph {
 public:
  /// `enabled`: record and replay (CUDA builds only); otherwise every run() calls through.
  explicit LaunchGraph(bool enabled);
  ~LaunchGraph();
  LaunchGraph(const LaunchGraph&) = delete;
  LaunchGraph& operator=(const LaunchGraph&) = delete;

  /// Runs `enqueue` for the key (the addresses of the fields it works on and a variant of the work): directly on the
  /// key's first call (which may still allocate), recorded and launched on its second, replayed from then on.
  void run(const void* first, const void* second, int variant, const std::function<void()>& enqueue);
  /// True while calls are recorded and replayed.
  bool active() const { return enabled_; }
  /// True while the compute stream is being captured into a graph (nothing enqueued then runs until it is launched).
  static bool recording();

 private:
  struct Recording {
    const void* first = nullptr;
    const void* second = nullptr;
    int variant = 0;
    int calls = 0;
    void* graph = nullptr;  // the instantiated graph (cudaGraphExec_t)
  };
  static constexpr std::size_t max_recordings_ = 8;
  void record(Recording& recording, const std::function<void()>& enqueue);

  bool enabled_;
  std::vector<Recording> recordings_;
};

}  // namespace eddy::device
