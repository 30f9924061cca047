#pragma once
// Global reductions across ranks: sum, max or min of one or several values in one collective.
// NCCL on device memory (no host synchronisation) or MPI, as the run's transport says (parallel/transport.hpp).
#include "parallel/context.hpp"
#include "parallel/transport.hpp"

#include <array>
#include <string>

namespace eddy::parallel {

enum class ReduceOp { sum, max, min };

class Reducer {
 public:
  /// Reduces over `context`'s ranks by `transport` (mpi or nccl; choose_reduction_transport).
  Reducer(Context& context, Transport transport);

  // NCCL: enqueued on the default execution space instance (ExecSpace()), ordered after earlier kernels and before
  // later ones; the host does not wait and the result stays on the device, so solvers can test convergence in a
  // kernel. MPI: fences, reduces on the host (through a host copy on GPUs) and returns with the result in `values`.
  /// Combines `values` (device memory) element-wise across ranks in place; several values cost one collective.
  void allreduce(Buffer values, ReduceOp op) const;

  /// Gathers every rank's `send` (device memory, the same length on every rank) into `gathered`, rank after rank;
  /// ordered like allreduce().
  void allgather(Buffer send, Buffer gathered) const;

  /// Combines host values across ranks and returns them (blocks until done).
  template <std::size_t N>
  std::array<Real, N> allreduce(std::array<Real, N> values, ReduceOp op) const {
    allreduce_host(values.data(), static_cast<int>(N), op);
    return values;
  }
  /// Global sum of one host value.
  Real sum(Real value) const { return allreduce(std::array<Real, 1>{value}, ReduceOp::sum)[0]; }
  /// Global maximum of one host value.
  Real max(Real value) const { return allreduce(std::array<Real, 1>{value}, ReduceOp::max)[0]; }
  /// Global minimum of one host value.
  Real min(Real value) const { return allreduce(std::array<Real, 1>{value}, ReduceOp::min)[0]; }

  /// True when device values are reduced by NCCL on the device.
  bool uses_nccl() const { return use_nccl_; }
  /// True when allreduce() on device values waits on the host for the device and the other ranks (MPI, several).
  bool blocks_host() const { return !use_nccl_ && context_->size() > 1; }
  /// The transport it reduces by.
  Transport transport() const { return use_nccl_ ? Transport::nccl : Transport::mpi; }
  /// The ranks it reduces over.
  Context& context() const { return *context_; }

 private:
  void allreduce_host(Real* values, int count, ReduceOp op) const;
  Context* context_;
  bool use_nccl_ = false;
};

}  // namespace eddy::parallel
