#pragma once
// Times every Kokkos kernel (parallel_for, parallel_reduce, parallel_scan) and deep copy of this process by label,
// through the Kokkos Tools callbacks. Each launch is fenced before and after, so a kernel's time is its own, as under
// a profiler that serializes kernels: overlap between kernels, and of kernels with communication, is lost, and the
// fences add their cost to the wall time. While a timer runs, launch graphs call their work directly
// (device/launch_graph.hpp), so the kernels they hold are launched, and seen, one by one.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace eddy {

/// The launches and the time of one kernel label.
struct KernelTime {
  std::string label;
  long long launches = 0;
  double seconds = 0;
};

class KernelTimer {
 public:
  /// Starts timing; throws when another timer runs or a Kokkos tool library (KOKKOS_TOOLS_LIBS) holds the callbacks.
  KernelTimer();
  /// Stops timing.
  ~KernelTimer();
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

  /// The time of each label since the start, the slowest first.
  std::vector<KernelTime> times() const;

  struct Record;

 private:
  std::unique_ptr<Record> record_;
};

/// The kernels of `times` by their time per step (the first `listed`, then the others in one row), with each one's
/// time on the slowest rank where `slowest` (in the order of `times`) is given, and what is left of `wall_seconds`
/// outside them, as a text table for `steps` steps.
std::string kernel_time_table(const std::vector<KernelTime>& times, double wall_seconds, long long steps,
                              const std::vector<double>& slowest = {}, std::size_t listed = 16);

}  // namespace eddy
