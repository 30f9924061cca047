#pragma once
// The CUDA graphs one caller records, one per key: the addresses of the fields its work reads and a variant of the
// work (device/launch_graph.hpp, device/device_loop.hpp). Plain bookkeeping: the callers record and launch.
#include <cstddef>
#include <vector>

namespace eddy::device {

class GraphRecordings {
 public:
  struct Entry {
    const void* first = nullptr;
    const void* second = nullptr;
    int variant = 0;
    int calls = 0;          ///< calls of the key so far that did not launch its graph
    void* graph = nullptr;  ///< the instantiated graph (cudaGraphExec_t), once recorded
  };
  /// Keys kept at the most; further keys run as they are.
  static constexpr std::size_t most = 8;

  GraphRecordings() = default;
  ~GraphRecordings();
  GraphRecordings(const GraphRecordings&) = delete;
  GraphRecordings& operator=(const GraphRecordings&) = delete;

  /// The key's entry, added where fewer than `most` are kept; nullptr where it is new and there is no room.
  Entry* find(const void* first, const void* second, int variant);

 private:
  std::vector<Entry> entries_;
};

}  // namespace eddy::device
