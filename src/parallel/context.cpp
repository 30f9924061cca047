#include "parallel/context.hpp"

#include "core/error.hpp"
#include "parallel/nccl_check.hpp"

#include <string>
#include <tuple>
#include <utility>

namespace eddy::parallel {
namespace {

int world_rank() {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error("rank " + std::to_string(world_rank()) + ": " + call + " failed: " + std::string(text, length));
}

#ifdef EDDY_HAVE_NCCL
void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw Error("rank " + std::to_string(world_rank()) + ": " + call + " failed: " + ncclGetErrorString(result));
}

void check_cuda(cudaError_t result, const char* call) {
  if (result == cudaSuccess) return;
  throw Error("rank " + std::to_string(world_rank()) + ": " + call + " failed: " + cudaGetErrorString(result));
}
#endif

namespace {

// The rank of the calling process among the ranks of `comm` on its node, and their number (collective).
std::pair<int, int> node_rank_and_count(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int rank = 0, count = 1;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &count);
  MPI_Comm_free(&node);
  return {rank, count};
}

}  // namespace

int node_local_rank(MPI_Comm comm) { return node_rank_and_count(comm).first; }

int node_rank_count(MPI_Comm comm) { return node_rank_and_count(comm).second; }

std::string device_sharing_hint(int ranks_on_node, int visible_devices) {
  if (visible_devices <= 0 || ranks_on_node <= visible_devices) return "";
  return ". " + std::to_string(ranks_on_node) + " ranks run on this node and " + std::to_string(visible_devices) +
         " GPU(s) are visible to this one: NCCL refuses ranks that share a GPU, so run one rank per GPU (at most " +
         std::to_string(visible_devices) +
         " per node), or set parallel.halo_backend and parallel.reduction_backend to mpi";
}

Kokkos::InitializationSettings kokkos_settings_for_rank(MPI_Comm comm) {
  Kokkos::InitializationSettings settings;
#if defined(KOKKOS_ENABLE_CUDA)
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    settings.set_device_id(node_local_rank(comm) % devices);
#else
  (void)comm;
#endif
  return settings;
}

Context::Context(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  std::tie(local_rank_, local_size_) = node_rank_and_count(comm_);
}

Context::~Context() {
#ifdef EDDY_HAVE_NCCL
  if (nccl_) ncclCommDestroy(static_cast<ncclComm_t>(nccl_));
#endif
}

bool Context::nccl_available() {
#ifdef EDDY_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

void* Context::nccl_comm() {
#ifdef EDDY_HAVE_NCCL
  if (!nccl_) {
    ncclUniqueId id;
    if (rank_ == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    check_mpi(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm_), "MPI_Bcast(ncclUniqueId)");
    ncclComm_t nccl;
    const ncclResult_t started = ncclCommInitRank(&nccl, size_, id, rank_);
    try {
      check_nccl(started, "ncclCommInitRank");
    } catch (const Error& failure) {
      if (started != ncclInvalidUsage) throw;  // what NCCL reports for two ranks on one GPU
      int devices = 0;
      if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
      throw Error(failure.what() + device_sharing_hint(local_size_, devices));
    }
    nccl_ = nccl;
  }
  return nccl_;
#else
  throw Error("this eddy build has no NCCL (it needs the Kokkos CUDA backend and NCCL at configure time)");
#endif
}

}  // namespace eddy::parallel
