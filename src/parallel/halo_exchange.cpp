#include "parallel/halo_exchange.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "parallel/nccl_check.hpp"
#include "parallel/peer_layout.hpp"
#include "parallel/reducer.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace eddy::parallel {
namespace {

constexpr int max_segments = 26;

// Consecutive x points one work item handles: one on GPUs (coalesced, many threads), whole rows on CPUs (the index
// decoding, with its divisions, is paid once per row instead of once per point).
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
constexpr int row_chunk = 1;
#else
constexpr int row_chunk = 1 << 30;
#endif

// The segments as one kernel sees them. Segment s is read from or written to the buffer at base[s] (this rank's send
// or receive buffer, or the neighbour's receive buffer), laid out [field][point], points x fastest over the box that
// starts at lo[3 s ..] with extents dims[3 s ..]. The kernels run
// over work items: segment s owns items [item_start[s], item_start[s + 1]), one per chunk of a row of one field.
// Index arithmetic is 32-bit (a rank's ghost shell stays far below 2^31 points) and the wrap onto an unsplit
// periodic axis is a conditional shift.
struct SegmentTable {
  int count = 0;
  Kokkos::Array<int, max_segments + 1> item_start;
  Kokkos::Array<Real*, max_segments> base;
  Kokkos::Array<int, max_segments> points, chunks;  // points of one field; chunks per row
  Kokkos::Array<int, 3 * max_segments> lo, dims;
  Kokkos::Array<bool, max_segments> local;  // copied inside the field instead of packed into the buffer
};

// Raw access to the exchanged fields (same shape and strides) and the owned block used for periodic wrap.
struct FieldAccess {
  Kokkos::Array<Real*, HaloExchange::max_fields> data;
  int count = 0;
  int stride_y = 0, stride_z = 0;
  int ghost = 0;
  Kokkos::Array<int, 3> cells;
};

// View index of the owned cell that view index i mirrors along an axis of n owned cells wrapping onto itself; the
// identity on owned cells.
KOKKOS_INLINE_FUNCTION int wrap_to_owned(int i, int ghost, int n) {
  while (i < ghost) i += n;
  while (i >= ghost + n) i -= n;
  return i;
}

// One work item: a run of x points [x_begin, x_end) of a row of one field in one segment.
struct RowChunk {
  int segment, field, x_begin, x_end;
  int y, z;    // view indices of the row (before wrap)
  int buffer;  // index of the point at x_begin from the segment's base
};

KOKKOS_INLINE_FUNCTION RowChunk decode(const SegmentTable& table, int idx) {
  RowChunk r;
  int s = 0;
  while (idx >= table.item_start[s + 1]) ++s;
  r.segment = s;
  const int* dims = &table.dims[3 * s];
  int rest = idx - table.item_start[s];
  const int row = rest / table.chunks[s];
  const int chunk = rest - row * table.chunks[s];
  const int plane = row / dims[1];
  const int y = row - plane * dims[1];
  r.field = plane / dims[2];
  const int z = plane - r.field * dims[2];
  const int x0 = chunk * (dims[0] < row_chunk ? dims[0] : row_chunk);
  const int x1 = x0 + (dims[0] < row_chunk ? dims[0] : row_chunk);
  r.x_begin = table.lo[3 * s] + x0;
  r.x_end = table.lo[3 * s] + (x1 < dims[0] ? x1 : dims[0]);
  r.y = table.lo[3 * s + 1] + y;
  r.z = table.lo[3 * s + 2] + z;
  r.buffer = r.field * table.points[s] + (z * dims[1] + y) * dims[0] + x0;
  return r;
}

SegmentTable make_table(const std::vector<HaloSegment>& segments, int first, int last, int fields, bool send_side,
                        const std::vector<Real*>& base) {
  SegmentTable t{};
  const int count = last - first;
  t.count = count;
  t.item_start[0] = 0;
  for (int s = 0; s < count; ++s) {
    const auto& seg = segments[first + s];
    const Int3& lo = send_side && !seg.local ? seg.send_lo : seg.recv_lo;
    for (int a = 0; a < 3; ++a) {
      t.lo[3 * s + a] = lo[a];
      t.dims[3 * s + a] = seg.dims[a];
    }
    t.local[s] = seg.local;
    t.base[s] = seg.local ? nullptr : base[first + s];
    t.points[s] = static_cast<int>(seg.points());
    const int chunk = std::min(seg.dims[0], row_chunk);
    t.chunks[s] = (seg.dims[0] + chunk - 1) / chunk;
    t.item_start[s + 1] = t.item_start[s] + t.chunks[s] * seg.dims[1] * seg.dims[2] * fields;
  }
  for (int s = count; s < max_segments; ++s) t.points[s] = t.chunks[s] = 1;
  for (int s = count + 1; s <= max_segments; ++s) t.item_start[s] = t.item_start[count];
  return t;
}

// One kernel for all fields and segments: remote segments are packed at their base (a send buffer, or the
// neighbour's receive buffer), local ones are copied from the owned cells they mirror straight into the ghosts.
void pack(const std::string& label, const FieldAccess f, const SegmentTable table, const ExecSpace& space,
          const ExchangeStamps stamps = {}) {
  const int total = table.item_start[table.count];
  if (total == 0) return;
  Kokkos::parallel_for(
      label, Range(space, 0, total), KOKKOS_LAMBDA(int idx) {
        if (idx == 0) stamps.packing();
        const RowChunk r = decode(table, idx);
        Real* data = f.data[r.field];
        const int row_source =
            f.stride_y * wrap_to_owned(r.y, f.ghost, f.cells[1]) + f.stride_z * wrap_to_owned(r.z, f.ghost, f.cells[2]);
        if (table.local[r.segment]) {
          const int row_target = f.stride_y * r.y + f.stride_z * r.z;
          for (int x = r.x_begin; x < r.x_end; ++x) {
            data[x + row_target] = data[wrap_to_owned(x, f.ghost, f.cells[0]) + row_source];
          }
        } else {
          Real* target = table.base[r.segment] + r.buffer - r.x_begin;
          for (int x = r.x_begin; x < r.x_end; ++x)
            target[x] = data[wrap_to_owned(x, f.ghost, f.cells[0]) + row_source];
        }
      });
}

// One kernel for all fields and remote segments: ghosts filled from the receive buffer at each segment's base.
void unpack(const std::string& label, const FieldAccess f, const SegmentTable table, const ExchangeStamps stamps) {
  const int total = table.item_start[table.count];
  if (total == 0) return;
  Kokkos::parallel_for(
      label, Range(0, total), KOKKOS_LAMBDA(int idx) {
        if (idx == 0) stamps.unpacking();
        const RowChunk r = decode(table, idx);
        Real* data = f.data[r.field] + f.stride_y * r.y + f.stride_z * r.z;
        const Real* source = table.base[r.segment] + r.buffer - r.x_begin;
        for (int x = r.x_begin; x < r.x_end; ++x) data[x] = source[x];
      });
}

// The rows exchange_after_row_ends() fills, each copied whole (x ghosts included) from the owned row it mirrors: first
// the rows on a y ghost layer (z indices over the owned cells and, where z wraps, its ghost layer: the edges), then
// the rows on a z ghost layer with an owned y index.
struct WholeRows {
  int y_rows = 0, rows = 0;
  int k_lo = 0, k_count = 1;  // z indices of the rows on a y ghost layer
  int j_count = 1;            // owned y indices of the rows on a z ghost layer
  int ghost = 0, ny = 0, nz = 0;
  int x_lo = 0, x_count = 0;  // the x view indices of a row that are copied

  KOKKOS_INLINE_FUNCTION int wrap(int i, int n) const { return i < ghost ? i + n : i >= ghost + n ? i - n : i; }
  /// The target row (j, k) of row r and its source.
  KOKKOS_INLINE_FUNCTION void row(int r, int& j, int& k, int& j_source, int& k_source) const {
    if (r < y_rows) {
      j = r < k_count ? ghost - 1 : ghost + ny;
      k = k_lo + r % k_count;
    } else {
      r -= y_rows;
      k = r < j_count ? ghost - 1 : ghost + nz;
      j = ghost + r % j_count;
    }
    j_source = wrap(j, ny);
    k_source = wrap(k, nz);
  }
};

// The rows on the ghost layers of the axes that wrap onto the block; with `face_axis` >= 0 only those of that axis.
WholeRows whole_rows(const grid::Decomposition& decomp, const fields::LocalShape& shape, int face_axis) {
  WholeRows w;
  w.ghost = shape.ghost;
  w.ny = shape.cells[1];
  w.nz = shape.cells[2];
  w.x_lo = shape.ghost - 1;
  w.x_count = shape.cells[0] + 2;
  const bool wraps_z = decomp.wraps_onto_itself(2);
  w.k_lo = wraps_z ? shape.ghost - 1 : shape.ghost;
  w.k_count = shape.cells[2] + (wraps_z ? 2 : 0);
  w.j_count = shape.cells[1];
  const bool y_rows = face_axis == -1 || face_axis == 1, z_rows = face_axis == -1 || face_axis == 2;
  w.y_rows = decomp.wraps_onto_itself(1) && y_rows ? 2 * w.k_count : 0;
  w.rows = w.y_rows + (wraps_z && z_rows ? 2 * w.j_count : 0);
  return w;
}

// One team per row of one field: the whole row is copied from the row it mirrors, which owns its x ghosts already.
void copy_whole_rows(const std::string& label, const FieldAccess f, const WholeRows w) {
  if (w.rows == 0) return;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight>;
  Kokkos::parallel_for(
      label, Policy(w.rows * f.count, Kokkos::AUTO), KOKKOS_LAMBDA(const Policy::member_type& team) {
        const int field = team.league_rank() / w.rows;
        int j, k, j_source, k_source;
        w.row(team.league_rank() - field * w.rows, j, k, j_source, k_source);
        Real* data = f.data[field];
        Real* target = data + w.x_lo + j * f.stride_y + k * f.stride_z;
        const Real* source = data + w.x_lo + j_source * f.stride_y + k_source * f.stride_z;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, w.x_count), [&](int x) { target[x] = source[x]; });
      });
}

FieldAccess field_access(const std::vector<Field>& fields, const fields::LocalShape& shape) {
  FieldAccess f{};
  f.count = static_cast<int>(fields.size());
  for (int i = 0; i < f.count; ++i) f.data[i] = fields[i].data();
  f.stride_y = static_cast<int>(fields[0].stride(1));
  f.stride_z = static_cast<int>(fields[0].stride(2));
  f.ghost = shape.ghost;
  for (int a = 0; a < 3; ++a) f.cells[a] = shape.cells[a];
  return f;
}

// What the exchange's kernel labels end in: its fields and the owned cells of the block, so that a profile tells the
// velocity's exchange from each multigrid level's.
std::string kernel_label_suffix(const std::vector<Field>& fields, const fields::LocalShape& shape) {
  std::string suffix = " ";
  for (std::size_t i = 0; i < fields.size(); ++i) suffix += (i > 0 ? "," : "") + fields[i].label();
  return suffix + " " + std::to_string(shape.cells[0]) + "x" + std::to_string(shape.cells[1]) + "x" +
         std::to_string(shape.cells[2]);
}

}  // namespace

#ifdef EDDY_HAVE_NCCL
// A stream beside the compute stream: the NCCL transfers run on it, or the peer transport's pack (pack_alongside()),
// so that kernels enqueued on the compute stream between begin() and finish() overlap with them. `forked` orders the
// side stream's work after the compute stream's earlier kernels, `joined` the compute stream's later work after it.
struct HaloExchange::DeviceQueue {
  cudaStream_t stream = nullptr;
  cudaEvent_t forked = nullptr, joined = nullptr;
  std::optional<ExecSpace> space;  // an execution space instance on `stream`

  DeviceQueue() {
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags(halo)");
    check_cuda(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming), "cudaEventCreateWithFlags(halo forked)");
    check_cuda(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming), "cudaEventCreateWithFlags(halo joined)");
    space.emplace(stream);
  }
  // A destructor cannot report failures; after finish() the stream holds no work, so these calls only free handles.
  ~DeviceQueue() {
    space.reset();
    (void)cudaEventDestroy(joined);
    (void)cudaEventDestroy(forked);
    (void)cudaStreamDestroy(stream);
  }
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;

  /// The side stream waits for the work enqueued so far on the compute stream.
  void fork() const {
    check_cuda(cudaEventRecord(forked, ExecSpace().cuda_stream()), "cudaEventRecord(halo forked)");
    check_cuda(cudaStreamWaitEvent(stream, forked, 0), "cudaStreamWaitEvent(halo forked)");
  }
  /// The compute stream waits for the work enqueued so far on the side stream.
  void join() const {
    check_cuda(cudaEventRecord(joined, stream), "cudaEventRecord(halo joined)");
    check_cuda(cudaStreamWaitEvent(ExecSpace().cuda_stream(), joined, 0), "cudaStreamWaitEvent(halo joined)");
  }
};
#else
struct HaloExchange::DeviceQueue {};
#endif

void HaloExchange::check_fields() const {
  require(!fields_.empty() && static_cast<int>(fields_.size()) <= max_fields,
          "halo exchange: between 1 and " + std::to_string(max_fields) + " fields per exchange");
  for (const auto& field : fields_) {
    for (int a = 0; a < 3; ++a) {
      require(static_cast<int>(field.extent(a)) == shape_.extent(a) && field.stride(a) == fields_[0].stride(a),
              "halo exchange: field '" + field.label() + "' does not have the exchange's shape");
    }
  }
}

void HaloExchange::rebind(std::vector<Field> fields) {
  require(!in_flight_, "halo exchange: rebind() while an exchange is in flight");
  require(fields.size() == fields_.size(), "halo exchange: rebind() with " + std::to_string(fields.size()) +
                                               " fields, built for " + std::to_string(fields_.size()));
  fields_ = std::move(fields);
  check_fields();
  label_suffix_ = kernel_label_suffix(fields_, shape_);
}

HaloExchange::HaloExchange(Context& context, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                           std::vector<Field> fields, int width, Transport transport, int face_axis)
    : context_(&context),
      decomp_(decomp),
      shape_(shape),
      fields_(std::move(fields)),
      width_(width),
      face_axis_(face_axis) {
  check_fields();
  require(face_axis >= -1 && face_axis < 3, "halo exchange: the face axis must be 0, 1, 2 or -1 (all ghosts)");
  label_suffix_ = kernel_label_suffix(fields_, shape_);
  by_rows_ = width_ == 1 && !parallel::row_end_images(decomp_, shape_).empty();
  segments_ = by_rows_ ? plan_halo_by_rows(decomp_, shape_) : plan_halo(decomp_, shape_, width_);
  if (face_axis >= 0) {
    segments_ = faces_along(std::move(segments_), face_axis);
    label_suffix_ += " faces " + std::string(1, "xyz"[face_axis]);
  }
  for (const auto& s : segments_) remote_count_ += s.local ? 0 : 1;
  comm_ = decomp_.comm != MPI_COMM_NULL ? decomp_.comm : context_->comm();
  transport_ = transport;
  if (transport_ == Transport::nccl) {
    context_->nccl_comm();
    queue_ = std::make_shared<DeviceQueue>();
  }
  offset_ = receive_offsets(segments_, remote_count_, static_cast<int>(fields_.size()));
  const long long size = offset_.back();
  if (transport_ == Transport::peer) {
    if (remote_count_ == 0) return;  // no message: every face of the exchange wraps onto the rank (on every rank)
    // The pack writes straight into the neighbours' receive buffers: no send buffer.
    links_ = std::make_shared<PeerLinks>(comm_, segments_, remote_count_, offset_, size);
    recv_ = Buffer(links_->receive_buffer(), size);
    return;
  }
  send_ = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halo::send"), size);
  recv_ = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halo::recv"), size);
  if (transport_ == Transport::mpi) {
    send_host_ = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, send_);
    recv_host_ = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, recv_);
    staged_ = send_host_.data() != send_.data();
  }
  requests_.resize(2 * remote_count_, MPI_REQUEST_NULL);
}

RowEndImages HaloExchange::row_end_images() const {
  if (!by_rows_) return {};
  return parallel::row_end_images(decomp_, shape_);
}

void HaloExchange::exchange_after_row_ends() {
  ProfileRegion region("halo::after_row_ends");
  begin(true);
  finish();
}

long long HaloExchange::bytes_per_exchange() const {
  long long points = 0;
  for (int s = 0; s < remote_count_; ++s) points += segments_[s].points();
  return points * static_cast<long long>(fields_.size() * sizeof(Real));
}

long long HaloExchange::ghost_bytes_per_exchange() const {
  long long points = 0;
  for (const auto& s : segments_) points += s.points();
  return points * static_cast<long long>(fields_.size() * sizeof(Real));
}

void HaloExchange::exchange() {
  begin();
  finish();
}

void HaloExchange::begin(bool row_ends_written) {
  ProfileRegion region("halo::begin");
  require(!in_flight_, "halo exchange: begin() called twice without finish()");
  require(!row_ends_written || by_rows_, "halo exchange: the x ghosts of these fields are not their rows' images");
  if (row_ends_written && remote_count_ == 0) {
    copy_whole_rows("halo::whole_rows" + label_suffix_, field_access(fields_, shape_),
                    whole_rows(decomp_, shape_, face_axis_));
    in_flight_ = true;
    return;
  }
  const bool peer = transport_ == Transport::peer && remote_count_ > 0;
  const bool aside = peer && pack_alongside_;
  const ExecSpace packing = aside ? side_space() : ExecSpace();
  if (aside) fork();
  if (peer) links_->wait_until_consumed(packing);
  std::vector<Real*> base(segments_.size(), nullptr);
  for (int s = 0; s < remote_count_; ++s) base[s] = peer ? links_->target(s) : send_.data() + offset_[s];
  const int fields = static_cast<int>(fields_.size());
  int count = static_cast<int>(segments_.size());
  while (row_ends_written && count > 0 && segments_[count - 1].direction[0] != 0) --count;  // the x faces come last
  const auto access = field_access(fields_, shape_);
  if (aside) {
    // The copies of periodic wraps fill ghosts that the kernels enqueued before finish() may read (only ghosts filled
    // by other ranks are off limits to them): they run on the compute stream, the packs for the neighbours beside it.
    pack("halo::pack" + label_suffix_, access, make_table(segments_, 0, remote_count_, fields, true, base), packing,
         stamps_);
    pack("halo::wrap" + label_suffix_, access,
         make_table(segments_, remote_count_, std::max(count, remote_count_), fields, true, base), ExecSpace());
  } else {
    pack("halo::pack" + label_suffix_, access, make_table(segments_, 0, count, fields, true, base), packing, stamps_);
  }
  in_flight_ = true;
  if (remote_count_ == 0) return;
  switch (transport_) {
    case Transport::nccl:
      transfer_begin_nccl();
      break;
    case Transport::peer:
      links_->announce_sent(packing);
      break;
    case Transport::mpi:
      transfer_begin_mpi();
      break;
  }
}

void HaloExchange::finish() {
  ProfileRegion region("halo::finish");
  require(in_flight_, "halo exchange: finish() called without begin()");
  in_flight_ = false;
  if (remote_count_ == 0) return;
  switch (transport_) {
    case Transport::nccl:
      transfer_finish_nccl();
      break;
    case Transport::peer:
      if (pack_alongside_) join();
      links_->wait_until_sent();
      break;
    case Transport::mpi:
      transfer_finish_mpi();
      break;
  }
  std::vector<Real*> base(remote_count_);
  for (int s = 0; s < remote_count_; ++s) base[s] = recv_.data() + offset_[s];
  unpack("halo::unpack" + label_suffix_, field_access(fields_, shape_),
         make_table(segments_, 0, remote_count_, static_cast<int>(fields_.size()), false, base), stamps_);
  if (transport_ == Transport::peer) links_->announce_consumed();
}

void HaloExchange::transfer_begin_mpi() {
  const ExecSpace exec;
  if (staged_) Kokkos::deep_copy(exec, send_host_, send_);
  // The packed data must be complete before MPI reads it, and the previous unpack done before recv is overwritten.
  exec.fence("halo::packed");
  const int fields = static_cast<int>(fields_.size());
  // Tags name the direction the message travels in (as seen by its sender), so several messages between the same
  // two ranks (two ranks on a periodic axis, edges and corners) cannot be confused.
  for (int s = 0; s < remote_count_; ++s) {
    const auto& seg = segments_[s];
    const int tag = 26 - direction_index(seg.direction);
    check_mpi(MPI_Irecv(recv_host_.data() + offset_[s], static_cast<int>(seg.points() * fields), mpi_real(), seg.peer,
                        tag, comm_, &requests_[s]),
              "MPI_Irecv(halo)");
  }
  for (int s = 0; s < remote_count_; ++s) {
    const auto& seg = segments_[s];
    check_mpi(MPI_Isend(send_host_.data() + offset_[s], static_cast<int>(seg.points() * fields), mpi_real(), seg.peer,
                        direction_index(seg.direction), comm_, &requests_[remote_count_ + s]),
              "MPI_Isend(halo)");
  }
}

void HaloExchange::transfer_finish_mpi() {
  check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall(halo)");
  if (staged_) Kokkos::deep_copy(ExecSpace(), recv_, recv_host_);
}

void HaloExchange::transfer_begin_nccl() {
#ifdef EDDY_HAVE_NCCL
  const auto comm = static_cast<ncclComm_t>(context_->nccl_comm());
  const size_t fields = fields_.size();
  queue_->fork();
  // NCCL matches the messages between two ranks in posting order. Sends go in increasing direction index; the
  // message received from direction d was sent towards -d, whose index is 26 - index(d), so receives go in
  // decreasing direction index and both ends agree however many messages one pair of ranks exchanges.
  check_nccl(ncclGroupStart(), "ncclGroupStart(halo)");
  for (int s = 0; s < remote_count_; ++s) {
    check_nccl(ncclSend(send_.data() + offset_[s], segments_[s].points() * fields, nccl_real, segments_[s].peer, comm,
                        queue_->stream),
               "ncclSend(halo)");
  }
  for (int s = remote_count_ - 1; s >= 0; --s) {
    check_nccl(ncclRecv(recv_.data() + offset_[s], segments_[s].points() * fields, nccl_real, segments_[s].peer, comm,
                        queue_->stream),
               "ncclRecv(halo)");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd(halo)");
#endif
}

void HaloExchange::transfer_finish_nccl() { join(); }

void HaloExchange::time_on(ExchangeClock& clock) {
  require(!in_flight_, "halo exchange: time_on() while an exchange is in flight");
  if (remote_count_ > 0) stamps_ = clock.stamps();
}

void HaloExchange::pack_alongside() {
  require(!in_flight_, "halo exchange: pack_alongside() while an exchange is in flight");
  if (transport_ != Transport::peer || remote_count_ == 0) return;
  if (!queue_) queue_ = std::make_shared<DeviceQueue>();
  pack_alongside_ = true;
}

ExecSpace HaloExchange::side_space() const {
#ifdef EDDY_HAVE_NCCL
  return *queue_->space;
#else
  return ExecSpace();
#endif
}

void HaloExchange::fork() const {
#ifdef EDDY_HAVE_NCCL
  queue_->fork();
#endif
}

void HaloExchange::join() const {
#ifdef EDDY_HAVE_NCCL
  queue_->join();
#endif
}

}  // namespace eddy::parallel
