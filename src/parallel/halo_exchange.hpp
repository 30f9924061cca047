#pragma once
// Ghost-layer exchange between neighbouring ranks for a fixed set of fields.
// Axis by axis (x, then y, then z), each slab spanning the full extent of the other axes, so edges and corners are
// filled too; periodic wrap included. One pack and one unpack kernel per axis for all fields and both sides.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "parallel/context.hpp"

#include <string>
#include <vector>

namespace eddy::parallel {

class HaloExchange {
 public:
  static constexpr int max_fields = 8;

  /// Builds the exchange for `fields` (all of `shape`) with `width` <= shape.ghost layers; buffers are allocated here.
  HaloExchange(Context& context, const grid::Decomposition& decomp, const fields::LocalShape& shape,
               std::vector<Field> fields, int width, config::CommBackend backend = config::CommBackend::automatic);

  /// Fills every ghost layer that faces a neighbour rank (or this rank, across a periodic boundary).
  void exchange();
  /// Bytes sent by this rank per exchange (for bandwidth reports).
  long long bytes_per_exchange() const;
  /// "nccl" or "mpi".
  std::string backend_name() const { return use_nccl_ ? "nccl" : "mpi"; }

 private:
  void exchange_axis(int axis);
  void transfer_mpi(int axis);
  void transfer_nccl(int axis);

  Context* context_;
  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  std::vector<Field> fields_;
  int width_;
  bool use_nccl_ = false;
  Buffer send_[3], recv_[3];  // per axis: [low side | high side]
  Kokkos::View<Real*, Kokkos::HostSpace> send_host_[3], recv_host_[3];
  long long slab_points_[3]{};  // points per side per field
};

}  // namespace eddy::parallel
