#pragma once
// Halo messages between GPUs of one node, written by the pack kernel straight into the neighbour's receive buffer
// (CUDA IPC over NVLink or PCIe), with no staging and no library call per message.
//
// Every rank exports its receive buffer and two interprocess events: `sent` (recorded after its pack has written into
// its neighbours) and `consumed` (recorded after its unpack). A neighbour's compute stream waits on them; a one-int MPI
// token tells the host that the event it is about to wait on has been recorded for this round. The host never waits
// for the device: only for its neighbours' hosts to have enqueued their work.
#include "parallel/halo_plan.hpp"

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace eddy::parallel {

class PeerLinks {
 public:
  /// Empty when, on every rank of `comm`, each remote segment's peer runs on this node with a GPU this one can
  /// write to; otherwise why not (the same answer on every rank). Collective over `comm`.
  static std::string unavailable_reason(MPI_Comm comm, const std::vector<HaloSegment>& segments, int remote_count);

  /// Allocates the receive buffer (`recv_points` values; remote segment s lands at `recv_offset[s]`) and opens the
  /// neighbours' buffers and events. Collective over `comm`.
  PeerLinks(MPI_Comm comm, const std::vector<HaloSegment>& segments, int remote_count,
            const std::vector<long long>& recv_offset, long long recv_points);
  ~PeerLinks();
  PeerLinks(const PeerLinks&) = delete;
  PeerLinks& operator=(const PeerLinks&) = delete;

  /// This rank's receive buffer (device memory exported to its neighbours).
  Real* receive_buffer() const;
  /// Where this rank's remote segment s goes: an address inside the neighbour's receive buffer.
  Real* target(int segment) const { return targets_[segment]; }
  /// Before a pack: the compute stream waits until every neighbour has unpacked the previous round.
  void wait_until_consumed();
  /// After a pack: records `sent` and tells the neighbours.
  void announce_sent();
  /// Before an unpack: the compute stream waits until every neighbour's pack of this round is done.
  void wait_until_sent();
  /// After an unpack: records `consumed` and tells the neighbours.
  void announce_consumed();

 private:
  struct Device;  // CUDA handles (GPU builds)
  std::unique_ptr<Device> device_;
  std::vector<Real*> targets_;
};

}  // namespace eddy::parallel
