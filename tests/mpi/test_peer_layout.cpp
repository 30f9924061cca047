// The peer transport's handshake (parallel/peer_layout.hpp) on every process grid of the rank count, each axis walled
// or periodic, with blocks of unequal size: exchanges of one and two layers, by whole rows, and of one axis's faces.
// Each rank sends each neighbour its layout, works out from it where its segments and its two flags go in that
// neighbour's receive buffer, and sends that back; the neighbour checks that each of its ghost segments from that rank
// is written once, at its own offset and with its own size, and that the flags land on the words it waits on. On three
// and four ranks some neighbours receive different amounts, which the check must meet.
#include "parallel/peer_layout.hpp"
#include "process_grids.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <sstream>
#include <string>

using eddy::Int3;
using eddy::parallel::HaloSegment;
using eddy::parallel::PeerFlag;

namespace {

constexpr int fields = 3;

// What a rank works out for one neighbour's buffer, indexed by the neighbour's direction towards this rank.
struct Claimed {
  long long value_offset[27];
  long long points[27];
  long long arrived, unpacked;
};

struct Exchange {
  std::vector<HaloSegment> segments;
  int remote_count = 0;
  std::vector<long long> offsets;  // receive_offsets(): each remote segment's start, then the total
};

Exchange make_exchange(std::vector<HaloSegment> segments) {
  Exchange e;
  e.segments = std::move(segments);
  for (const auto& s : e.segments) e.remote_count += s.local ? 0 : 1;
  e.offsets = eddy::parallel::receive_offsets(e.segments, e.remote_count, fields);
  return e;
}

// Runs the handshake for `e` with every neighbour and checks what they claim; returns how many neighbours' flags start
// elsewhere than this rank's.
int check_handshake(const Exchange& e, const std::string& what) {
  const std::vector<int> peers = eddy::parallel::distinct_peers(e.segments, e.remote_count);
  const long long total = e.offsets.back();
  const std::size_t flags_at = eddy::parallel::flags_offset(total);
  int unlike = 0;
  for (std::size_t k = 0; k < peers.size(); ++k) {
    const int rank = peers[k], slot = static_cast<int>(k);
    const auto mine = eddy::parallel::export_layout(e.segments, e.remote_count, e.offsets, total, slot);
    eddy::parallel::PeerLayout theirs{};
    MPI_Sendrecv(&mine, sizeof(mine), MPI_BYTE, rank, 1, &theirs, sizeof(theirs), MPI_BYTE, rank, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (static_cast<std::size_t>(theirs.flags_at) != flags_at) ++unlike;
    const auto there = eddy::parallel::targets_in(theirs, e.segments, e.remote_count, rank);
    Claimed claim{};
    for (int d = 0; d < 27; ++d) claim.value_offset[d] = claim.points[d] = -1;
    for (int s = 0; s < e.remote_count; ++s) {
      if (e.segments[s].peer != rank) continue;
      const int towards_me = 26 - eddy::parallel::direction_index(e.segments[s].direction);
      claim.value_offset[towards_me] = there.value_offset[s];
      claim.points[towards_me] = e.segments[s].points() * fields;
    }
    claim.arrived = static_cast<long long>(there.arrived);
    claim.unpacked = static_cast<long long>(there.unpacked);
    Claimed got{};
    MPI_Sendrecv(&claim, sizeof(claim), MPI_BYTE, rank, 2, &got, sizeof(got), MPI_BYTE, rank, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int d = 0; d < 27; ++d) {
      long long offset = -1, points = -1;
      for (int s = 0; s < e.remote_count; ++s) {
        if (e.segments[s].peer == rank && eddy::parallel::direction_index(e.segments[s].direction) == d) {
          offset = e.offsets[s];
          points = e.segments[s].points() * fields;
        }
      }
      EXPECT_EQ(got.value_offset[d], offset) << what << ": from rank " << rank << ", direction " << d;
      EXPECT_EQ(got.points[d], points) << what << ": from rank " << rank << ", direction " << d;
    }
    EXPECT_EQ(got.arrived, static_cast<long long>(eddy::parallel::flag_byte(flags_at, slot, PeerFlag::arrived)))
        << what << ": rank " << rank << "'s arrived flag";
    EXPECT_EQ(got.unpacked, static_cast<long long>(eddy::parallel::flag_byte(flags_at, slot, PeerFlag::unpacked)))
        << what << ": rank " << rank << "'s unpacked flag";
  }
  return unlike;
}

}  // namespace

TEST(PeerLayout, EveryNeighbourWritesWhereTheReceiverReads) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int unlike = 0, cases = 0;
  for (int dim : {2, 3}) {
    for (const Int3& dims : eddy::test::process_grids(ranks, dim)) {
      for (int mask = 0; mask < 8; ++mask) {
        eddy::grid::GlobalGrid grid;
        grid.dim = dim;
        grid.cells = dim == 3 ? Int3{10, 9, 11} : Int3{9, 11, 1};
        grid.periodic = {(mask & 1) != 0, (mask & 2) != 0, dim == 2 || (mask & 4) != 0};
        if (dim == 2 && (mask & 4) != 0) continue;
        const auto decomp = eddy::grid::plan_decomposition(grid, ranks, rank, dims);
        std::ostringstream what;
        what << dim << "D process grid " << dims[0] << "x" << dims[1] << "x" << dims[2] << " periodic " << mask;
        for (int width : {1, 2}) {
          const auto shape = eddy::fields::local_shape(decomp, 2);
          const std::string label = what.str() + " width " + std::to_string(width);
          unlike += check_handshake(make_exchange(eddy::parallel::plan_halo(decomp, shape, width)), label);
          for (int axis = 0; axis < dim; ++axis) {
            const auto faces = eddy::parallel::faces_along(eddy::parallel::plan_halo(decomp, shape, width), axis);
            unlike += check_handshake(make_exchange(faces), label + " faces " + std::to_string(axis));
          }
          ++cases;
        }
        if (decomp.wraps_onto_itself(0)) {
          const auto shape = eddy::fields::local_shape(decomp, 1);
          unlike +=
              check_handshake(make_exchange(eddy::parallel::plan_halo_by_rows(decomp, shape)), what.str() + " by rows");
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
  int unlike_anywhere = 0;
  MPI_Allreduce(&unlike, &unlike_anywhere, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (ranks >= 3) {
    EXPECT_GT(unlike_anywhere, 0) << "no neighbours with buffers of different lengths were checked";
  }
}
