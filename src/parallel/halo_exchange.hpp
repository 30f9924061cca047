#pragma once
// Ghost-layer exchange between neighbouring ranks for a fixed set of fields, in one round of messages to every face,
// edge and corner neighbour (26 in 3D, 8 in 2D), periodic wrap included, or to the two face neighbours along one axis
// only (the ghosts a difference along that axis reads). begin() packs all fields with one kernel and
// posts every message; finish() waits and unpacks with one kernel. Transports (parallel/transport.hpp, chosen once a
// run): MPI (CPUs), NCCL send/receive (GPUs), and on GPUs of one node direct writes into the neighbour's receive
// buffer (parallel/peer_links.hpp). Between the two, kernels may update cells that
// read no ghost filled by another rank (grid/overlap_ranges.hpp names them).
//
// Where x is periodic and not split between ranks (one ghost layer), the exchange goes by whole rows: the y and z
// segments span the x ghosts, so no message or copy touches one point per row except the two x faces. Kernels that
// write the fields' rows may fill those x faces themselves (row_end_images()); exchange_after_row_ends() and
// begin(true) then leave them out. Elsewhere an x face costs one 32-byte sector per point on GPUs.
//
// Ghosts beyond a physical boundary, including edges and corners that lie outside the global domain, are left as
// they are: physical boundary conditions fill them, after the exchange, over the full extent of the other axes.
#include "fields/field.hpp"
#include "parallel/context.hpp"
#include "parallel/exchange_clock.hpp"
#include "parallel/halo_plan.hpp"
#include "parallel/peer_links.hpp"
#include "parallel/row_end_images.hpp"
#include "parallel/transport.hpp"

#include <memory>
#include <string>
#include <vector>

namespace eddy::parallel {

class HaloExchange {
 public:
  static constexpr int max_fields = 8;

  /// Builds the exchange for `fields` (all of `shape`) with `width` <= shape.ghost layers over `transport`; buffers are
  /// allocated here.
  /// `face_axis` >= 0 keeps only the two ghost faces along that axis, without edges or corners: the ghosts that a
  /// difference of the fields along it reads at owned points (the normal velocity component's for a divergence).
  HaloExchange(Context& context, const grid::Decomposition& decomp, const fields::LocalShape& shape,
               std::vector<Field> fields, int width, Transport transport, int face_axis = -1);

  /// Exchanges `fields` from now on instead of those it was built for (as many, of the same shape).
  void rebind(std::vector<Field> fields);

  /// Fills every ghost point within `width` of the owned block that mirrors a cell of the global domain.
  void exchange();
  /// Packs and posts the exchange; ghosts along axes that wrap onto this rank are already filled when it returns.
  /// `row_ends_written`: the kernel that wrote the fields also wrote their row_end_images(), which are left alone.
  void begin(bool row_ends_written = false);
  /// Completes the exchange started by begin(): waits for the messages and unpacks them (enqueued on ExecSpace()).
  void finish();
  /// From now on, with the peer transport, begin() packs on a stream of its own: kernels enqueued on ExecSpace()
  /// before finish() run while the pack writes into the neighbours' memory. Not for exchanges a CUDA graph records.
  void pack_alongside();

  /// The x ghosts that kernels writing the fields' rows may fill themselves: empty unless the exchange goes by rows
  /// (x periodic and not split, one layer).
  RowEndImages row_end_images() const;
  /// exchange() after the kernel that wrote the fields wrote their row_end_images(): the x faces are left as they
  /// are, and the other ghosts are filled by whole rows, x ghosts included.
  void exchange_after_row_ends();

  /// From now on each exchange with messages adds the stretch from its pack's start to its unpack's start to `clock`
  /// (see parallel/exchange_clock.hpp); exchanges without messages add nothing.
  void time_on(ExchangeClock& clock);
  /// True when exchanges are timed on a clock.
  bool timed() const { return stamps_.words != nullptr; }

  /// Bytes sent to other ranks per exchange (for bandwidth reports).
  long long bytes_per_exchange() const;
  /// Bytes written into ghost layers per exchange, by messages and by local periodic copies.
  long long ghost_bytes_per_exchange() const;
  /// Ghost layers filled per side.
  int width() const { return width_; }
  /// The transport the exchange was built over.
  Transport transport() const { return transport_; }
  /// True when exchange() waits on the host for the device and the neighbours (MPI messages to other ranks).
  bool blocks_host() const { return transport_ == Transport::mpi && remote_count_ > 0; }
  /// True when begin() and finish() only enqueue stream work on ExecSpace() (no messages, or the peer transport), so
  /// a CUDA graph may record them.
  bool enqueues_only() const { return remote_count_ == 0 || transport_ == Transport::peer; }

 private:
  struct DeviceQueue;  // a CUDA stream beside the compute stream, for NCCL transfers or peer packs (GPU builds)

  void check_fields() const;

  ExecSpace side_space() const;  // the execution space instance on queue_'s stream
  void fork() const;             // queue_'s stream waits for the compute stream's work so far
  void join() const;             // the compute stream waits for queue_'s stream's work so far

  void transfer_begin_mpi();
  void transfer_finish_mpi();
  void transfer_begin_nccl();
  void transfer_finish_nccl();

  Context* context_;
  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  std::vector<Field> fields_;
  int width_;
  int face_axis_ = -1;        // the axis of the only faces exchanged, or -1 for every ghost
  std::string label_suffix_;  // of the kernels' labels: the fields and the block's cells
  Transport transport_ = Transport::mpi;
  bool in_flight_ = false;
  bool pack_alongside_ = false;  // the peer pack runs on queue_'s stream (pack_alongside())
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<HaloSegment> segments_;  // remote first, then local; by rows, the two x faces last
  int remote_count_ = 0;
  bool by_rows_ = false;           // plan_halo_by_rows()
  std::vector<long long> offset_;  // start of each remote segment in the buffers (all fields), then their total
  Buffer send_, recv_;             // [remote segment][field][point]
  Kokkos::View<Real*, Kokkos::HostSpace> send_host_, recv_host_;
  bool staged_ = false;  // MPI with device memory the host cannot reach: copy through the host
  std::vector<MPI_Request> requests_;
  std::shared_ptr<DeviceQueue> queue_;
  std::shared_ptr<PeerLinks> links_;
  ExchangeStamps stamps_;  // the clock of time_on(), if any
};

}  // namespace eddy::parallel
