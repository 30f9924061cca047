#include "parallel/halo_exchange.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "parallel/nccl_check.hpp"
#include "parallel/reducer.hpp"

namespace eddy::parallel {
namespace {

// Where the slabs of one axis lie: `dims` of a slab, and the first view index of the owned layers sent to each side
// and of the ghost layers received from each side, along `axis`.
struct SlabGeometry {
  Kokkos::Array<int, 3> dims;
  Kokkos::Array<int, 2> send_start, recv_start;
  int axis;
};

SlabGeometry slab_geometry(const fields::LocalShape& s, int axis, int width) {
  SlabGeometry geo{};
  for (int a = 0; a < 3; ++a) geo.dims[a] = s.extent(a);
  geo.dims[axis] = width;
  const int g = s.ghost, n = s.cells[axis];
  geo.send_start[0] = g;
  geo.send_start[1] = g + n - width;
  geo.recv_start[0] = g - width;
  geo.recv_start[1] = g + n;
  geo.axis = axis;
  return geo;
}

struct FieldPointers {
  Kokkos::Array<Real*, HaloExchange::max_fields> data;
  int count;
  int stride_y, stride_z;
};

// Copies between the slabs of all fields and a buffer laid out [side][field][slab point]. `to_buffer` packs the owned
// layers; otherwise the ghost layers of the sides marked in `active` are filled from the buffer.
void copy_slabs(const FieldPointers& f, const SlabGeometry& geo, Buffer buffer, bool to_buffer,
                Kokkos::Array<bool, 2> active) {
  const long long per_field = static_cast<long long>(geo.dims[0]) * geo.dims[1] * geo.dims[2];
  const long long per_side = per_field * f.count;
  Kokkos::parallel_for(
      to_buffer ? "halo::pack" : "halo::unpack", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(0, 2 * per_side),
      KOKKOS_LAMBDA(long long idx) {
        const int side = static_cast<int>(idx / per_side);
        if (!active[side]) return;
        const long long rest = idx - side * per_side;
        const int field = static_cast<int>(rest / per_field);
        long long q = rest - field * per_field;
        int ijk[3];
        ijk[0] = static_cast<int>(q % geo.dims[0]);
        q /= geo.dims[0];
        ijk[1] = static_cast<int>(q % geo.dims[1]);
        ijk[2] = static_cast<int>(q / geo.dims[1]);
        ijk[geo.axis] += to_buffer ? geo.send_start[side] : geo.recv_start[side];
        Real* data = f.data[field];
        const long long offset = ijk[0] + static_cast<long long>(f.stride_y) * ijk[1] +
                                 static_cast<long long>(f.stride_z) * ijk[2];
        if (to_buffer) {
          buffer(idx) = data[offset];
        } else {
          data[offset] = buffer(idx);
        }
      });
}

}  // namespace

HaloExchange::HaloExchange(Context& context, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                           std::vector<Field> fields, int width, config::CommBackend backend)
    : context_(&context), decomp_(decomp), shape_(shape), fields_(std::move(fields)), width_(width) {
  require(!fields_.empty() && static_cast<int>(fields_.size()) <= max_fields,
          "halo exchange: between 1 and " + std::to_string(max_fields) + " fields per exchange");
  require(width_ >= 1 && width_ <= shape_.ghost, "halo exchange: width must be between 1 and the ghost width");
  for (int a = 0; a < 3; ++a) {
    require(shape_.cells[a] >= width_ || (decomp_.neighbour[a][0] < 0 && decomp_.neighbour[a][1] < 0),
            "halo exchange: a rank owns fewer cells along an axis than the halo width; use fewer ranks");
  }
  use_nccl_ = resolve_nccl(backend, "parallel.halo_backend");
  if (use_nccl_) context_->nccl_comm();
  for (int a = 0; a < 3; ++a) {
    const auto geo = slab_geometry(shape_, a, width_);
    slab_points_[a] = static_cast<long long>(geo.dims[0]) * geo.dims[1] * geo.dims[2];
    const long long size = 2 * slab_points_[a] * static_cast<long long>(fields_.size());
    send_[a] = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halo::send"), size);
    recv_[a] = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halo::recv"), size);
    if (!use_nccl_) {
      send_host_[a] = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, send_[a]);
      recv_host_[a] = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, recv_[a]);
    }
  }
}

long long HaloExchange::bytes_per_exchange() const {
  long long bytes = 0;
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      const int peer = decomp_.neighbour[a][side];
      if (peer >= 0 && peer != decomp_.rank) bytes += slab_points_[a] * fields_.size() * sizeof(Real);
    }
  }
  return bytes;
}

void HaloExchange::exchange() {
  ProfileRegion region("halo::exchange");
  for (int a = 0; a < 3; ++a) exchange_axis(a);
}

void HaloExchange::exchange_axis(int axis) {
  const auto& peers = decomp_.neighbour[axis];
  if (peers[0] < 0 && peers[1] < 0) return;
  FieldPointers f{};
  f.count = static_cast<int>(fields_.size());
  for (int i = 0; i < f.count; ++i) f.data[i] = fields_[i].data();
  f.stride_y = static_cast<int>(fields_[0].stride(1));
  f.stride_z = static_cast<int>(fields_[0].stride(2));
  const auto geo = slab_geometry(shape_, axis, width_);
  const Kokkos::Array<bool, 2> active{peers[0] >= 0, peers[1] >= 0};

  copy_slabs(f, geo, send_[axis], true, active);
  if (use_nccl_) {
    transfer_nccl(axis);
  } else {
    transfer_mpi(axis);
  }
  copy_slabs(f, geo, recv_[axis], false, active);
}

void HaloExchange::transfer_mpi(int axis) {
  const auto& peers = decomp_.neighbour[axis];
  const long long side_size = slab_points_[axis] * static_cast<long long>(fields_.size());
  const bool staged = send_host_[axis].data() != send_[axis].data();
  if (staged) Kokkos::deep_copy(send_host_[axis], send_[axis]);
  ExecSpace().fence("halo::packed");
  Real* send = send_host_[axis].data();
  Real* recv = recv_host_[axis].data();
  MPI_Request requests[4];
  int count = 0;
  for (int side = 0; side < 2; ++side) {
    const int peer = peers[side];
    if (peer < 0) continue;
    // The slab received from the neighbour on `side` was sent towards that neighbour's opposite side.
    const int recv_tag = 2 * axis + (1 - side), send_tag = 2 * axis + side;
    check_mpi(MPI_Irecv(recv + side * side_size, static_cast<int>(side_size), MPI_DOUBLE, peer, recv_tag,
                        decomp_.comm != MPI_COMM_NULL ? decomp_.comm : context_->comm(), &requests[count++]),
              "MPI_Irecv(halo)");
    check_mpi(MPI_Isend(send + side * side_size, static_cast<int>(side_size), MPI_DOUBLE, peer, send_tag,
                        decomp_.comm != MPI_COMM_NULL ? decomp_.comm : context_->comm(), &requests[count++]),
              "MPI_Isend(halo)");
  }
  check_mpi(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE), "MPI_Waitall(halo)");
  if (staged) Kokkos::deep_copy(recv_[axis], recv_host_[axis]);
}

void HaloExchange::transfer_nccl(int axis) {
#ifdef EDDY_HAVE_NCCL
  const auto& peers = decomp_.neighbour[axis];
  const size_t side_size = slab_points_[axis] * fields_.size();
  auto comm = static_cast<ncclComm_t>(context_->nccl_comm());
  const auto stream = ExecSpace().cuda_stream();
  Real* send = send_[axis].data();
  Real* recv = recv_[axis].data();
  // Self-neighbours (a periodic axis not split) copy directly; the rest go through one NCCL group.
  for (int side = 0; side < 2; ++side) {
    if (peers[side] == decomp_.rank) {
      check_cuda(cudaMemcpyAsync(recv + side * side_size, send + (1 - side) * side_size, side_size * sizeof(Real),
                                 cudaMemcpyDeviceToDevice, stream),
                 "cudaMemcpyAsync(halo self copy)");
    }
  }
  // A peer that is the neighbour on both sides (two ranks, periodic) gets two messages each way: NCCL matches them
  // in posting order, so sends go low slab first and receives fill the high ghost (which gets the peer's low slab)
  // first.
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int side = 0; side < 2; ++side) {
    const int peer = peers[side];
    if (peer < 0 || peer == decomp_.rank) continue;
    check_nccl(ncclSend(send + side * side_size, side_size, ncclDouble, peer, comm, stream), "ncclSend(halo)");
  }
  for (int side = 1; side >= 0; --side) {
    const int peer = peers[side];
    if (peer < 0 || peer == decomp_.rank) continue;
    check_nccl(ncclRecv(recv + side * side_size, side_size, ncclDouble, peer, comm, stream), "ncclRecv(halo)");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
#else
  (void)axis;
#endif
}

}  // namespace eddy::parallel
