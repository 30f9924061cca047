#pragma once
// How halo data and reductions travel between ranks, decided once for a run (time/tuning_plan.hpp) and handed to every
// halo exchange and reducer: MPI messages (CPUs, or any build), NCCL (GPU builds with NCCL), or, for halos, direct
// writes into the neighbour GPU's memory on one node (parallel/peer_links.hpp). The deck's request
// (parallel.halo_backend, parallel.reduction_backend) is resolved against what the build and the machine have here
// only.
#include "config/deck.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"

#include <string>

namespace eddy::parallel {

enum class Transport { mpi, nccl, peer };

/// "mpi", "nccl" or "peer".
std::string to_string(Transport transport);

/// The halo transport for `requested` on `decomp`'s ranks (automatic: MPI on CPUs; on GPUs peer where every neighbour
/// of every rank is in reach, else NCCL). Collective over the decomposition's ranks; throws eddy::Error naming
/// parallel.halo_backend where the request cannot be met here.
Transport choose_halo_transport(const Context& context, const grid::Decomposition& decomp,
                                config::CommBackend requested = config::CommBackend::automatic);

/// The reduction transport for `requested` (automatic: NCCL where the build has it); throws eddy::Error naming
/// parallel.reduction_backend where NCCL or peer is asked of a build that cannot.
Transport choose_reduction_transport(config::CommBackend requested = config::CommBackend::automatic);

}  // namespace eddy::parallel
