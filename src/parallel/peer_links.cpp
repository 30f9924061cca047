#include "parallel/peer_links.hpp"

#include "core/error.hpp"
#include "parallel/context.hpp"
#include "parallel/nccl_check.hpp"
#include "parallel/peer_layout.hpp"

#include <cstdint>
#include <string>

#ifdef EDDY_HAVE_NCCL
#include <cuda.h>
#endif

namespace eddy::parallel {
#ifdef EDDY_HAVE_NCCL

namespace {

constexpr int tag_handles = 1;

void check_driver(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorString(result, &name);
  throw Error(std::string(call) + " failed: " + (name != nullptr ? name : "unknown CUDA driver error"));
}

}  // namespace

// What a rank tells each neighbour once: its exported buffer and that buffer's layout (parallel/peer_layout.hpp).
struct ExportedHandles {
  cudaIpcMemHandle_t buffer;
  PeerLayout layout;
};

struct Neighbour {
  Real* buffer = nullptr;                         // the neighbour's receive buffer, opened here
  CUdeviceptr arrived = 0, unpacked = 0;          // this rank's flags in the neighbour's memory
  CUdeviceptr own_arrived = 0, own_unpacked = 0;  // the neighbour's flags in this rank's memory
};

struct PeerLinks::Device {
  Real* buffer = nullptr;  // values, then two flag words per neighbour
  std::vector<Neighbour> neighbours;
  CUstream stream = nullptr;  // the compute stream (ExecSpace's), which unpacks and, unless told otherwise, packs

  // `on` waits until each neighbour's flag in this rank's memory is set, then clears it.
  void await_and_clear(CUdeviceptr Neighbour::*flag, CUstream on) const {
    for (const auto& n : neighbours) {
      check_driver(cuStreamWaitValue32(on, n.*flag, 1, CU_STREAM_WAIT_VALUE_EQ), "cuStreamWaitValue32(peer)");
      check_driver(cuStreamWriteValue32(on, n.*flag, 0, CU_STREAM_WRITE_VALUE_DEFAULT),
                   "cuStreamWriteValue32(peer clear)");
    }
  }
  // `on` sets this rank's flag in each neighbour's memory, after a fence over its earlier writes.
  void set(CUdeviceptr Neighbour::*flag, CUstream on) const {
    for (const auto& n : neighbours) {
      check_driver(cuStreamWriteValue32(on, n.*flag, 1, CU_STREAM_WRITE_VALUE_DEFAULT),
                   "cuStreamWriteValue32(peer signal)");
    }
  }
};

std::string PeerLinks::unavailable_reason(MPI_Comm comm, const std::vector<HaloSegment>& segments, int remote_count) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type(peer)");
  int node_size = 1;
  MPI_Comm_size(node, &node_size);
  const int device = ExecSpace().cuda_device();
  std::vector<int> devices(node_size);
  check_mpi(MPI_Allgather(&device, 1, MPI_INT, devices.data(), 1, MPI_INT, node), "MPI_Allgather(peer devices)");
  MPI_Group all_group, node_group;
  MPI_Comm_group(comm, &all_group);
  MPI_Comm_group(node, &node_group);
  std::string reason;
  for (int s = 0; s < remote_count && reason.empty(); ++s) {
    int peer = segments[s].peer, on_node = MPI_UNDEFINED;
    MPI_Group_translate_ranks(all_group, 1, &peer, node_group, &on_node);
    if (on_node == MPI_UNDEFINED) {
      reason = "rank " + std::to_string(peer) + " runs on another node";
    } else if (devices[on_node] != device) {
      int can = 0;
      check_cuda(cudaDeviceCanAccessPeer(&can, device, devices[on_node]), "cudaDeviceCanAccessPeer");
      if (!can) reason = "GPU " + std::to_string(device) + " cannot access GPU " + std::to_string(devices[on_node]);
    }
  }
  MPI_Group_free(&all_group);
  MPI_Group_free(&node_group);
  MPI_Comm_free(&node);
  int ok = reason.empty() ? 1 : 0, all_ok = 0;
  check_mpi(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce(peer)");
  if (all_ok) return "";
  return ok ? "a neighbour of another rank is out of reach" : reason;
}

PeerLinks::PeerLinks(MPI_Comm comm, const std::vector<HaloSegment>& segments, int remote_count,
                     const std::vector<long long>& recv_offset, long long recv_points)
    : device_(std::make_unique<Device>()), targets_(remote_count, nullptr) {
  auto& d = *device_;
  d.stream = ExecSpace().cuda_stream();
  const std::vector<int> peers = distinct_peers(segments, remote_count);
  const std::size_t flags_at = flags_offset(recv_points);
  const std::size_t bytes = receive_buffer_bytes(recv_points, static_cast<int>(peers.size()));
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&d.buffer), bytes), "cudaMalloc(peer receive buffer)");
  // Nothing has arrived, and every neighbour has unpacked (its buffer may be written).
  std::vector<std::uint32_t> initial(2 * peers.size());
  for (std::size_t k = 0; k < peers.size(); ++k) initial[2 * k + static_cast<int>(PeerFlag::unpacked)] = 1;
  auto* own_flags = reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(d.buffer) + flags_at);
  check_cuda(cudaMemcpy(own_flags, initial.data(), initial.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
             "cudaMemcpy(peer flags)");

  ExportedHandles mine{};
  check_cuda(cudaIpcGetMemHandle(&mine.buffer, d.buffer), "cudaIpcGetMemHandle");
  const auto address = [](Real* base, std::size_t byte) {
    return reinterpret_cast<CUdeviceptr>(reinterpret_cast<char*>(base) + byte);
  };
  for (std::size_t k = 0; k < peers.size(); ++k) {
    const int rank = peers[k], slot = static_cast<int>(k);
    mine.layout = export_layout(segments, remote_count, recv_offset, recv_points, slot);
    ExportedHandles theirs{};
    check_mpi(MPI_Sendrecv(&mine, sizeof(mine), MPI_BYTE, rank, tag_handles, &theirs, sizeof(theirs), MPI_BYTE, rank,
                           tag_handles, comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv(peer handles)");
    const PeerTargets there = targets_in(theirs.layout, segments, remote_count, rank);
    Neighbour n;
    check_cuda(cudaIpcOpenMemHandle(reinterpret_cast<void**>(&n.buffer), theirs.buffer, cudaIpcMemLazyEnablePeerAccess),
               "cudaIpcOpenMemHandle");
    n.arrived = address(n.buffer, there.arrived);
    n.unpacked = address(n.buffer, there.unpacked);
    n.own_arrived = address(d.buffer, flag_byte(flags_at, slot, PeerFlag::arrived));
    n.own_unpacked = address(d.buffer, flag_byte(flags_at, slot, PeerFlag::unpacked));
    for (int s = 0; s < remote_count; ++s) {
      if (there.value_offset[s] >= 0) targets_[s] = n.buffer + there.value_offset[s];
    }
    d.neighbours.push_back(n);
  }
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize(peer setup)");
  check_mpi(MPI_Barrier(comm), "MPI_Barrier(peer setup)");
}

PeerLinks::~PeerLinks() {
  auto& d = *device_;
  // A destructor cannot report failures. The neighbours' last packs into this buffer arrived before this rank's last
  // unpack; their last write into it is the `unpacked` flag after their last unpack, awaited here before the buffer
  // goes.
  for (const auto& n : d.neighbours) (void)cuStreamWaitValue32(d.stream, n.own_unpacked, 1, CU_STREAM_WAIT_VALUE_EQ);
  (void)cudaDeviceSynchronize();
  for (auto& n : d.neighbours) (void)cudaIpcCloseMemHandle(n.buffer);
  (void)cudaFree(d.buffer);
}

Real* PeerLinks::receive_buffer() const { return device_->buffer; }

void PeerLinks::wait_until_consumed(const ExecSpace& packing) {
  device_->await_and_clear(&Neighbour::own_unpacked, packing.cuda_stream());
}

void PeerLinks::announce_sent(const ExecSpace& packing) { device_->set(&Neighbour::arrived, packing.cuda_stream()); }

void PeerLinks::wait_until_sent() { device_->await_and_clear(&Neighbour::own_arrived, device_->stream); }

void PeerLinks::announce_consumed() { device_->set(&Neighbour::unpacked, device_->stream); }

#else

struct PeerLinks::Device {};

std::string PeerLinks::unavailable_reason(MPI_Comm, const std::vector<HaloSegment>&, int) {
  return "this eddy build has no CUDA and NCCL";
}

PeerLinks::PeerLinks(MPI_Comm, const std::vector<HaloSegment>&, int, const std::vector<long long>&, long long) {
  throw Error("peer halo exchange: this eddy build has no CUDA and NCCL");
}

PeerLinks::~PeerLinks() = default;
Real* PeerLinks::receive_buffer() const { return nullptr; }
void PeerLinks::wait_until_consumed(const ExecSpace&) {}
void PeerLinks::announce_sent(const ExecSpace&) {}
void PeerLinks::wait_until_sent() {}
void PeerLinks::announce_consumed() {}

#endif

}  // namespace eddy::parallel
