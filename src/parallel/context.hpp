#pragma once
// The MPI world of a run (rank, size, node-local rank) and, on GPUs, its NCCL communicator.
#include "core/types.hpp"

#include <mpi.h>

#include <memory>
#include <string>

namespace eddy::parallel {

/// Node-local rank of the calling process (ranks sharing its memory), used to pick its GPU.
int node_local_rank(MPI_Comm comm);

/// The number of ranks of `comm` on this rank's node (collective).
int node_rank_count(MPI_Comm comm);

/// The advice added to NCCL's "invalid usage" when `ranks_on_node` ranks outnumber the `visible_devices` GPUs a rank
/// sees (ranks may share a GPU, which NCCL refuses); empty when they do not.
std::string device_sharing_hint(int ranks_on_node, int visible_devices);

/// Kokkos settings for this rank: on GPU builds, device = node-local rank modulo the visible device count.
Kokkos::InitializationSettings kokkos_settings_for_rank(MPI_Comm comm);

/// Throws eddy::Error naming the rank and the call when an MPI call fails.
void check_mpi(int code, const char* call);

/// MPI's datatype of Real (the build's precision).
inline MPI_Datatype mpi_real() { return sizeof(Real) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE; }

/// The communicators of a run. NCCL (GPU builds only) is created on first use, bootstrapped through MPI.
class Context {
 public:
  /// Wraps `comm` (not owned).
  explicit Context(MPI_Comm comm = MPI_COMM_WORLD);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The communicator of eddy's ranks.
  MPI_Comm comm() const { return comm_; }
  /// This rank's index in comm().
  int rank() const { return rank_; }
  /// The number of ranks in comm().
  int size() const { return size_; }
  /// This rank's index among the ranks on its node.
  int local_rank() const { return local_rank_; }
  /// True when this build can use NCCL (Kokkos CUDA backend and NCCL found).
  static bool nccl_available();
  /// The NCCL communicator as an opaque pointer (ncclComm_t); created collectively on first call.
  void* nccl_comm();

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  void* nccl_ = nullptr;
};

}  // namespace eddy::parallel
