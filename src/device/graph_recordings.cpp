#include "device/graph_recordings.hpp"

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace eddy::device {

GraphRecordings::~GraphRecordings() {
#if defined(KOKKOS_ENABLE_CUDA)
  // A destructor cannot report failures; the graphs' work has been waited for by whoever read its results.
  for (const auto& e : entries_) {
    if (e.graph != nullptr) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(e.graph));
  }
#endif
}

GraphRecordings::Entry* GraphRecordings::find(const void* first, const void* second, int variant) {
  for (auto& e : entries_) {
    if (e.first == first && e.second == second && e.variant == variant) return &e;
  }
  if (entries_.size() >= most) return nullptr;
  entries_.push_back({first, second, variant});
  return &entries_.back();
}

}  // namespace eddy::device
