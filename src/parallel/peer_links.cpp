#include "parallel/peer_links.hpp"

#include "core/error.hpp"
#include "parallel/context.hpp"
#include "parallel/nccl_check.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#ifdef EDDY_HAVE_NCCL
#include <cuda.h>
#endif

namespace eddy::parallel {
#ifdef EDDY_HAVE_NCCL

namespace {

constexpr int tag_handles = 1;

// The flags of one neighbour, in the flag words past the receive buffer: 2 slot (arrived) and 2 slot + 1 (unpacked).
constexpr int arrived_flag = 0, unpacked_flag = 1;

void check_driver(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorString(result, &name);
  throw Error(std::string(call) + " failed: " + (name != nullptr ? name : "unknown CUDA driver error"));
}

// The distinct neighbours of the remote segments, in increasing rank.
std::vector<int> distinct_peers(const std::vector<HaloSegment>& segments, int remote_count) {
  std::set<int> peers;
  for (int s = 0; s < remote_count; ++s) peers.insert(segments[s].peer);
  return {peers.begin(), peers.end()};
}

// Bytes of the receive buffer's values, rounded up so that the flag words that follow start on their own line.
std::size_t values_bytes(long long points) {
  const std::size_t bytes = std::max<long long>(points, 1) * sizeof(Real);
  return (bytes + 255) / 256 * 256;
}

}  // namespace

// What a rank tells each neighbour once: its exported buffer, where in it the segment arriving from each direction
// (indexed by the receiver's direction index) starts, where its flag words start (ranks whose blocks or neighbours
// differ receive different amounts), and which slot of its flags belongs to that neighbour.
struct ExportedHandles {
  cudaIpcMemHandle_t buffer;
  long long offset[27];
  long long flags_at;
  int slot;
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
  const std::size_t flags_at = values_bytes(recv_points);
  const std::size_t bytes = flags_at + 2 * std::max<std::size_t>(peers.size(), 1) * sizeof(std::uint32_t);
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&d.buffer), bytes), "cudaMalloc(peer receive buffer)");
  // Nothing has arrived, and every neighbour has unpacked (its buffer may be written).
  std::vector<std::uint32_t> initial(2 * peers.size());
  for (std::size_t k = 0; k < peers.size(); ++k) initial[2 * k + unpacked_flag] = 1;
  auto* own_flags = reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(d.buffer) + flags_at);
  check_cuda(cudaMemcpy(own_flags, initial.data(), initial.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
             "cudaMemcpy(peer flags)");

  ExportedHandles mine{};
  check_cuda(cudaIpcGetMemHandle(&mine.buffer, d.buffer), "cudaIpcGetMemHandle");
  for (long long& offset : mine.offset) offset = -1;
  mine.flags_at = static_cast<long long>(flags_at);
  for (int s = 0; s < remote_count; ++s) mine.offset[direction_index(segments[s].direction)] = recv_offset[s];

  for (std::size_t k = 0; k < peers.size(); ++k) {
    const int rank = peers[k];
    ExportedHandles theirs{};
    mine.slot = static_cast<int>(k);
    check_mpi(MPI_Sendrecv(&mine, sizeof(mine), MPI_BYTE, rank, tag_handles, &theirs, sizeof(theirs), MPI_BYTE, rank,
                           tag_handles, comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv(peer handles)");
    Neighbour n;
    check_cuda(cudaIpcOpenMemHandle(reinterpret_cast<void**>(&n.buffer), theirs.buffer, cudaIpcMemLazyEnablePeerAccess),
               "cudaIpcOpenMemHandle");
    const auto flag_at = [](Real* base, std::size_t flags_start, int slot, int which) {
      return reinterpret_cast<CUdeviceptr>(reinterpret_cast<char*>(base) + flags_start) +
             (2 * slot + which) * sizeof(std::uint32_t);
    };
    const auto their_flags = static_cast<std::size_t>(theirs.flags_at);
    n.arrived = flag_at(n.buffer, their_flags, theirs.slot, arrived_flag);
    n.unpacked = flag_at(n.buffer, their_flags, theirs.slot, unpacked_flag);
    n.own_arrived = flag_at(d.buffer, flags_at, static_cast<int>(k), arrived_flag);
    n.own_unpacked = flag_at(d.buffer, flags_at, static_cast<int>(k), unpacked_flag);
    // A segment sent towards d arrives in the neighbour's ghosts on its side -d.
    for (int s = 0; s < remote_count; ++s) {
      if (segments[s].peer != rank) continue;
      const long long offset = theirs.offset[26 - direction_index(segments[s].direction)];
      require(offset >= 0, "peer halo exchange: rank " + std::to_string(rank) +
                               " expects no message from this rank's direction " +
                               std::to_string(direction_index(segments[s].direction)));
      targets_[s] = n.buffer + offset;
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
