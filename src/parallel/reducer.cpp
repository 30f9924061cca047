#include "parallel/reducer.hpp"

#include "core/error.hpp"
#include "parallel/nccl_check.hpp"

namespace eddy::parallel {
namespace {

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return MPI_SUM;
    case ReduceOp::max:
      return MPI_MAX;
    case ReduceOp::min:
      return MPI_MIN;
  }
  return MPI_SUM;
}

#ifdef EDDY_HAVE_NCCL
ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return ncclSum;
    case ReduceOp::max:
      return ncclMax;
    case ReduceOp::min:
      return ncclMin;
  }
  return ncclSum;
}
#endif

}  // namespace

Reducer::Reducer(Context& context, Transport transport) : context_(&context), use_nccl_(transport == Transport::nccl) {
  require(transport != Transport::peer, "Reducer: the peer transport moves halo data only");
  require(!use_nccl_ || Context::nccl_available(), "Reducer: NCCL asked of a build without it");
  if (use_nccl_) context_->nccl_comm();
}

void Reducer::allreduce(Buffer values, ReduceOp op) const {
  const int count = static_cast<int>(values.extent(0));
#ifdef EDDY_HAVE_NCCL
  if (use_nccl_) {
    const auto stream = ExecSpace().cuda_stream();
    check_nccl(ncclAllReduce(values.data(), values.data(), count, nccl_real, nccl_op(op),
                             static_cast<ncclComm_t>(context_->nccl_comm()), stream),
               "ncclAllReduce");
    return;
  }
#endif
  if (context_->size() == 1) return;
  // The values may come from kernels still running; a host mirror of host memory is the view itself (no copy, no
  // implicit fence), so fence explicitly before MPI reads them.
  ExecSpace().fence("reducer::before_mpi");
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, host.data(), count, mpi_real(), mpi_op(op), context_->comm()), "MPI_Allreduce");
  Kokkos::deep_copy(values, host);
}

void Reducer::allgather(Buffer send, Buffer gathered) const {
  const int count = static_cast<int>(send.extent(0));
  require(gathered.extent(0) == send.extent(0) * static_cast<std::size_t>(context_->size()),
          "allgather: the gathered buffer does not hold every rank's values");
#ifdef EDDY_HAVE_NCCL
  if (use_nccl_) {
    check_nccl(ncclAllGather(send.data(), gathered.data(), count, nccl_real,
                             static_cast<ncclComm_t>(context_->nccl_comm()), ExecSpace().cuda_stream()),
               "ncclAllGather");
    return;
  }
#endif
  if (context_->size() == 1) return Kokkos::deep_copy(ExecSpace(), gathered, send);
  ExecSpace().fence("reducer::before_mpi_gather");
  auto host_send = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), send);
  auto host_gathered = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, gathered);
  check_mpi(
      MPI_Allgather(host_send.data(), count, mpi_real(), host_gathered.data(), count, mpi_real(), context_->comm()),
      "MPI_Allgather");
  Kokkos::deep_copy(gathered, host_gathered);
}

void Reducer::allreduce_host(Real* values, int count, ReduceOp op) const {
  if (context_->size() == 1) return;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, mpi_real(), mpi_op(op), context_->comm()), "MPI_Allreduce");
}

}  // namespace eddy::parallel
