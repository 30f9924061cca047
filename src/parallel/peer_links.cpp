#include "parallel/peer_links.hpp"

#include "core/error.hpp"
#include "parallel/context.hpp"
#include "parallel/nccl_check.hpp"

#include <set>

namespace eddy::parallel {
#ifdef EDDY_HAVE_NCCL

namespace {

constexpr int tag_handles = 1, tag_sent = 2, tag_consumed = 3;

bool mpi_running() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return !finalized;
}

// The distinct neighbours of the remote segments, in increasing rank.
std::vector<int> distinct_peers(const std::vector<HaloSegment>& segments, int remote_count) {
  std::set<int> peers;
  for (int s = 0; s < remote_count; ++s) peers.insert(segments[s].peer);
  return {peers.begin(), peers.end()};
}

}  // namespace

// What a rank tells each neighbour once: its exported buffer and events, and where in that buffer the segment
// arriving from each direction (indexed by the receiver's direction index) starts.
struct ExportedHandles {
  cudaIpcMemHandle_t buffer;
  cudaIpcEventHandle_t sent, consumed;
  long long offset[27];
};

struct Neighbour {
  int rank = -1;
  Real* buffer = nullptr;
  cudaEvent_t sent = nullptr, consumed = nullptr;
};

struct PeerLinks::Device {
  MPI_Comm comm = MPI_COMM_NULL;  // a duplicate: tokens of different exchanges never meet
  Real* buffer = nullptr;
  cudaEvent_t sent = nullptr, consumed = nullptr;
  std::vector<Neighbour> neighbours;
  bool first_round = true;
  int token = 0;

  // The token's value is never read and `token` never changes, so the requests are released at once.
  void send_tokens(int tag) {
    for (const auto& n : neighbours) {
      MPI_Request request = MPI_REQUEST_NULL;
      check_mpi(MPI_Isend(&token, 1, MPI_INT, n.rank, tag, comm, &request), "MPI_Isend(peer token)");
      check_mpi(MPI_Request_free(&request), "MPI_Request_free(peer token)");
    }
  }

  void wait_tokens(int tag, bool consumed_event) {
    const auto stream = ExecSpace().cuda_stream();
    for (const auto& n : neighbours) {
      int value = 0;
      check_mpi(MPI_Recv(&value, 1, MPI_INT, n.rank, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv(peer token)");
      check_cuda(cudaStreamWaitEvent(stream, consumed_event ? n.consumed : n.sent, 0), "cudaStreamWaitEvent(peer)");
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
  check_mpi(MPI_Comm_dup(comm, &d.comm), "MPI_Comm_dup(peer)");
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&d.buffer), std::max<long long>(recv_points, 1) * sizeof(Real)),
             "cudaMalloc(peer receive buffer)");
  const unsigned flags = cudaEventDisableTiming | cudaEventInterprocess;
  check_cuda(cudaEventCreateWithFlags(&d.sent, flags), "cudaEventCreateWithFlags(peer sent)");
  check_cuda(cudaEventCreateWithFlags(&d.consumed, flags), "cudaEventCreateWithFlags(peer consumed)");

  ExportedHandles mine{};
  check_cuda(cudaIpcGetMemHandle(&mine.buffer, d.buffer), "cudaIpcGetMemHandle");
  check_cuda(cudaIpcGetEventHandle(&mine.sent, d.sent), "cudaIpcGetEventHandle(sent)");
  check_cuda(cudaIpcGetEventHandle(&mine.consumed, d.consumed), "cudaIpcGetEventHandle(consumed)");
  for (long long& offset : mine.offset) offset = -1;
  for (int s = 0; s < remote_count; ++s) mine.offset[direction_index(segments[s].direction)] = recv_offset[s];

  for (const int rank : distinct_peers(segments, remote_count)) {
    ExportedHandles theirs{};
    check_mpi(MPI_Sendrecv(&mine, sizeof(mine), MPI_BYTE, rank, tag_handles, &theirs, sizeof(theirs), MPI_BYTE, rank,
                           tag_handles, d.comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv(peer handles)");
    Neighbour n;
    n.rank = rank;
    check_cuda(cudaIpcOpenMemHandle(reinterpret_cast<void**>(&n.buffer), theirs.buffer, cudaIpcMemLazyEnablePeerAccess),
               "cudaIpcOpenMemHandle");
    check_cuda(cudaIpcOpenEventHandle(&n.sent, theirs.sent), "cudaIpcOpenEventHandle(sent)");
    check_cuda(cudaIpcOpenEventHandle(&n.consumed, theirs.consumed), "cudaIpcOpenEventHandle(consumed)");
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
  check_mpi(MPI_Barrier(d.comm), "MPI_Barrier(peer setup)");
}

PeerLinks::~PeerLinks() {
  auto& d = *device_;
  // The neighbours' last writes into this buffer completed before this rank's last unpack (it waited on their `sent`
  // events), and this rank's into theirs before their last unpack, so nothing writes any more.
  if (mpi_running()) MPI_Comm_free(&d.comm);
  (void)cudaDeviceSynchronize();
  for (auto& n : d.neighbours) {
    (void)cudaEventDestroy(n.sent);
    (void)cudaEventDestroy(n.consumed);
    (void)cudaIpcCloseMemHandle(n.buffer);
  }
  (void)cudaEventDestroy(d.sent);
  (void)cudaEventDestroy(d.consumed);
  (void)cudaFree(d.buffer);
}

Real* PeerLinks::receive_buffer() const { return device_->buffer; }

void PeerLinks::wait_until_consumed() {
  if (device_->first_round) {
    device_->first_round = false;
    return;
  }
  device_->wait_tokens(tag_consumed, true);
}

void PeerLinks::announce_sent() {
  check_cuda(cudaEventRecord(device_->sent, ExecSpace().cuda_stream()), "cudaEventRecord(peer sent)");
  device_->send_tokens(tag_sent);
}

void PeerLinks::wait_until_sent() { device_->wait_tokens(tag_sent, false); }

void PeerLinks::announce_consumed() {
  check_cuda(cudaEventRecord(device_->consumed, ExecSpace().cuda_stream()), "cudaEventRecord(peer consumed)");
  device_->send_tokens(tag_consumed);
}

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
void PeerLinks::wait_until_consumed() {}
void PeerLinks::announce_sent() {}
void PeerLinks::wait_until_sent() {}
void PeerLinks::announce_consumed() {}

#endif

}  // namespace eddy::parallel
