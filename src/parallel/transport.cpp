#include "parallel/transport.hpp"

#include "core/error.hpp"
#include "grid/local_shape.hpp"
#include "parallel/halo_plan.hpp"
#include "parallel/peer_links.hpp"

namespace eddy::parallel {
namespace {

bool nccl_requested(config::CommBackend requested, const char* deck_key) {
  if (requested == config::CommBackend::mpi) return false;
  if (requested == config::CommBackend::nccl && !Context::nccl_available()) {
    throw Error(std::string(deck_key) +
                ": 'nccl' was requested but this eddy build has no NCCL (it needs Kokkos with CUDA and NCCL); "
                "allowed here: auto, mpi");
  }
  return Context::nccl_available();
}

}  // namespace

std::string to_string(Transport transport) {
  switch (transport) {
    case Transport::nccl:
      return "nccl";
    case Transport::peer:
      return "peer";
    case Transport::mpi:
      break;
  }
  return "mpi";
}

Transport choose_halo_transport(const Context& context, const grid::Decomposition& decomp,
                                config::CommBackend requested) {
  const char* key = "parallel.halo_backend";
  const MPI_Comm comm = decomp.comm != MPI_COMM_NULL ? decomp.comm : context.comm();
  // Every neighbour a halo of the decomposition can reach: those of a full exchange one layer deep.
  const auto segments = plan_halo(decomp, grid::local_shape(decomp, 1), 1);
  int remote = 0;
  for (const auto& s : segments) remote += s.local ? 0 : 1;
  if (requested == config::CommBackend::peer) {
    const std::string why = PeerLinks::unavailable_reason(comm, segments, remote);
    if (!why.empty()) {
      throw Error(std::string(key) + ": 'peer' needs every neighbour on this node with a GPU in reach, but " + why +
                  "; allowed here: auto, mpi" + (Context::nccl_available() ? ", nccl" : ""));
    }
    return Transport::peer;
  }
  if (!nccl_requested(requested, key)) return Transport::mpi;
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  if (requested == config::CommBackend::automatic && ranks > 1 &&
      PeerLinks::unavailable_reason(comm, segments, remote).empty()) {
    return Transport::peer;
  }
  return Transport::nccl;
}

Transport choose_reduction_transport(config::CommBackend requested) {
  const char* key = "parallel.reduction_backend";
  if (requested == config::CommBackend::peer) {
    throw Error(std::string(key) + ": 'peer' moves halo data only; allowed here: auto, mpi" +
                (Context::nccl_available() ? ", nccl" : ""));
  }
  return nccl_requested(requested, key) ? Transport::nccl : Transport::mpi;
}

}  // namespace eddy::parallel
