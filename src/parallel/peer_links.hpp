#pragma once
// Halo messages between GPUs of one node, written by the pack kernel straight into the neighbour's receive buffer
// (CUDA IPC over NVLink or PCIe), with no staging and no library call per message.
//
// The ranks signal each other on the device: past its receive buffer every rank exports two flags per neighbour,
// `arrived` (the neighbour's pack of this round is in the buffer) and `unpacked` (the neighbour has unpacked what this
// rank sent, so this rank may write into its buffer again). A flag is set by the other GPU's stream with a fenced
// memory write (cuStreamWriteValue32) and awaited, then cleared, by its owner's stream (cuStreamWaitValue32), so the
// host never waits for anything: an exchange is four stream operations around the two kernels, and a solver cycle made
// of exchanges and kernels can be recorded as a CUDA graph on any number of GPUs.
#include "core/types.hpp"
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
  /// Before a pack: the stream of `packing` waits until every neighbour has unpacked the previous round.
  void wait_until_consumed(const ExecSpace& packing = ExecSpace());
  /// After a pack: the stream of `packing` tells every neighbour that the round has arrived.
  void announce_sent(const ExecSpace& packing = ExecSpace());
  /// Before an unpack: the compute stream waits until every neighbour's pack of this round has arrived.
  void wait_until_sent();
  /// After an unpack: the compute stream tells every neighbour that its buffer is free again.
  void announce_consumed();

 private:
  struct Device;  // CUDA handles (GPU builds)
  std::unique_ptr<Device> device_;
  std::vector<Real*> targets_;
};

}  // namespace eddy::parallel
