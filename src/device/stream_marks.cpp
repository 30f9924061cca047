#include "device/stream_marks.hpp"

#include "device/launch_graph.hpp"

#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace eddy::device {

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("stream marks: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace

struct StreamMarks::Events {
  std::vector<cudaEvent_t> pool;
  // A destructor cannot report failures; the events hold no work once read.
  ~Events() {
    for (cudaEvent_t event : pool) (void)cudaEventDestroy(event);
  }
};

StreamMarks::StreamMarks() : events_(std::make_unique<Events>()) {}
bool StreamMarks::available() { return true; }

int StreamMarks::record() {
  if (LaunchGraph::recording()) return -1;
  if (used_ == static_cast<int>(events_->pool.size())) {
    cudaEvent_t event = nullptr;
    check(cudaEventCreate(&event), "cudaEventCreate");
    events_->pool.push_back(event);
  }
  check(cudaEventRecord(events_->pool[used_], Kokkos::DefaultExecutionSpace().cuda_stream()), "cudaEventRecord");
  return used_++;
}

double StreamMarks::seconds(int from, int to) const {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, events_->pool[from], events_->pool[to]), "cudaEventElapsedTime");
  return 1e-3 * ms;
}

void StreamMarks::wait() const {
  if (used_ > 0) check(cudaEventSynchronize(events_->pool[used_ - 1]), "cudaEventSynchronize");
}
#else
struct StreamMarks::Events {};
StreamMarks::StreamMarks() = default;
bool StreamMarks::available() { return false; }
int StreamMarks::record() { return -1; }
double StreamMarks::seconds(int, int) const { return 0; }
void StreamMarks::wait() const {}
#endif

StreamMarks::~StreamMarks() = default;

}  // namespace eddy::device
