#pragma once
// Marks recorded on the compute stream (CUDA events), so that the time between two of them is the device's own, read
// later without waiting at each mark. Builds without CUDA have no marks: available() is false and callers time the
// host instead.
#include <memory>

namespace eddy::device {

class StreamMarks {
 public:
  StreamMarks();
  ~StreamMarks();
  StreamMarks(const StreamMarks&) = delete;
  StreamMarks& operator=(const StreamMarks&) = delete;

  /// True where the build can mark the compute stream (CUDA).
  static bool available();
  /// Records the next mark on the compute stream and returns its index; -1 where marks are unavailable or while the
  /// stream is captured into a graph.
  int record();
  /// Seconds of the stream between two recorded marks (both reached: call wait() first).
  double seconds(int from, int to) const;
  /// Waits until the stream has reached every mark recorded so far.
  void wait() const;
  /// Lets the marks recorded so far be reused (their intervals have been read).
  void reuse() { used_ = 0; }

 private:
  struct Events;
  std::unique_ptr<Events> events_;
  int used_ = 0;
};

}  // namespace eddy::device
