// Decomposition neighbours, the halo message plan and the overlap split, checked for every rank of every process
// grid without MPI traffic (plan_decomposition gives any rank's view).
#include "core/error.hpp"
#include "grid/overlap_ranges.hpp"
#include "parallel/halo_plan.hpp"
#include "process_grids.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

using eddy::Int3;
using eddy::grid::Decomposition;
using eddy::grid::GlobalGrid;

namespace {

GlobalGrid make_grid(int dim, int mask) {
  GlobalGrid grid;
  grid.dim = dim;
  grid.cells = dim == 3 ? Int3{9, 11, 10} : Int3{9, 11, 1};
  for (int a = 0; a < 3; ++a) grid.periodic[a] = (mask >> a) & 1;
  if (dim == 2) grid.periodic[2] = true;
  return grid;
}

// Calls `check(grid, ranks, dims)` for every rank count 1..6, dimension, periodicity and process grid.
template <class Check>
void for_every_layout(Check check) {
  for (int dim : {2, 3}) {
    for (int mask = 0; mask < (dim == 3 ? 8 : 4); ++mask) {
      const auto grid = make_grid(dim, mask);
      for (int ranks = 1; ranks <= 6; ++ranks) {
        for (const auto& dims : eddy::test::process_grids(ranks, dim)) check(grid, ranks, dims);
      }
    }
  }
}

Int3 direction_of(int index) { return {index / 9 - 1, (index / 3) % 3 - 1, index % 3 - 1}; }

}  // namespace

TEST(Decomposition, NeighbourOfMyNeighbourInTheOppositeDirectionIsMe) {
  for_every_layout([](const GlobalGrid& grid, int ranks, Int3 dims) {
    for (int rank = 0; rank < ranks; ++rank) {
      const auto me = eddy::grid::plan_decomposition(grid, ranks, rank, dims);
      ASSERT_EQ(me.dims, dims);
      for (int index = 0; index < 27; ++index) {
        const Int3 d = direction_of(index);
        const int peer = me.neighbour_at(d);
        bool outside = false;
        for (int a = 0; a < 3; ++a) {
          const int c = me.coords[a] + d[a];
          outside = outside || ((c < 0 || c >= dims[a]) && !grid.periodic[a]);
        }
        ASSERT_EQ(peer < 0, outside) << "rank " << rank << " direction " << index;
        if (peer < 0) continue;
        const auto other = eddy::grid::plan_decomposition(grid, ranks, peer, dims);
        EXPECT_EQ(other.neighbour_at({-d[0], -d[1], -d[2]}), rank);
        for (int a = 0; a < 3; ++a) EXPECT_EQ(other.coords[a], ((me.coords[a] + d[a]) % dims[a] + dims[a]) % dims[a]);
      }
      for (int a = 0; a < 3; ++a) {
        for (int side = 0; side < 2; ++side) {
          Int3 d{0, 0, 0};
          d[a] = side ? 1 : -1;
          EXPECT_EQ(me.neighbour[a][side], me.neighbour_at(d));
        }
      }
    }
  });
}

TEST(HaloPlan, SegmentsCoverExactlyTheGhostsThatMirrorDomainCells) {
  for_every_layout([](const GlobalGrid& grid, int ranks, Int3 dims) {
    for (int width : {1, 2}) {
      for (int rank = 0; rank < ranks; ++rank) {
        const auto d = eddy::grid::plan_decomposition(grid, ranks, rank, dims);
        const eddy::fields::LocalShape shape{d.local_cells, 2};
        bool feasible = true;
        for (int a = 0; a < 3; ++a) feasible = feasible && (dims[a] == 1 || grid.cells[a] / dims[a] >= width);
        if (!feasible) {
          EXPECT_THROW(eddy::parallel::plan_halo(d, shape, width), eddy::Error);
          continue;
        }
        const auto segments = eddy::parallel::plan_halo(d, shape, width);
        long long planned = 0;
        for (const auto& s : segments) {
          planned += s.points();
          EXPECT_EQ(s.local, s.peer == rank);
        }
        // Brute force: ghost points within `width` whose mirrored global cell lies inside the domain.
        long long expected = 0;
        const int g = shape.ghost;
        for (int k = g - width; k < g + shape.cells[2] + width; ++k) {
          for (int j = g - width; j < g + shape.cells[1] + width; ++j) {
            for (int i = g - width; i < g + shape.cells[0] + width; ++i) {
              const Int3 p{i, j, k};
              bool owned = true, inside = true;
              for (int a = 0; a < 3; ++a) {
                const int global = d.offset[a] + p[a] - g;
                owned = owned && p[a] >= g && p[a] < g + shape.cells[a];
                inside = inside && (grid.periodic[a] || (global >= 0 && global < grid.cells[a]));
              }
              if (!owned && inside) ++expected;
            }
          }
        }
        EXPECT_EQ(planned, expected) << "rank " << rank << " of " << dims[0] << "x" << dims[1] << "x" << dims[2];
      }
    }
  });
}

TEST(HaloPlan, MessagesBetweenTwoRanksMatchInPostingOrder) {
  // Rank r sends its remote segments in plan order; rank q receives in reverse plan order (the NCCL rule). The sizes
  // of the k-th send from r to q and of the k-th receive on q from r must agree, and the receive must come from the
  // opposite direction.
  for_every_layout([](const GlobalGrid& grid, int ranks, Int3 dims) {
    std::map<std::pair<int, int>, std::vector<std::pair<long long, int>>> sends, receives;
    for (int rank = 0; rank < ranks; ++rank) {
      const auto d = eddy::grid::plan_decomposition(grid, ranks, rank, dims);
      const auto segments = eddy::parallel::plan_halo(d, {d.local_cells, 1}, 1);
      for (const auto& s : segments) {
        if (!s.local) sends[{rank, s.peer}].push_back({s.points(), eddy::parallel::direction_index(s.direction)});
      }
      for (auto s = segments.rbegin(); s != segments.rend(); ++s) {
        if (!s->local) {
          receives[{s->peer, rank}].push_back({s->points(), 26 - eddy::parallel::direction_index(s->direction)});
        }
      }
    }
    EXPECT_EQ(sends, receives);
  });
}

TEST(OverlapRanges, InteriorAndShellPartitionTheOwnedCells) {
  for_every_layout([](const GlobalGrid& grid, int ranks, Int3 dims) {
    for (int width : {1, 2}) {
      const int rank = ranks - 1;
      const auto d = eddy::grid::plan_decomposition(grid, ranks, rank, dims);
      const eddy::fields::LocalShape shape{d.local_cells, 2};
      const auto ranges = eddy::grid::overlap_ranges(d, shape, width);
      EXPECT_LE(ranges.shell.size(), 6u);
      long long covered = ranges.interior.count();
      for (const auto& box : ranges.shell) {
        EXPECT_FALSE(box.empty());
        covered += box.count();
        for (int a = 0; a < 3; ++a) {
          EXPECT_GE(box.lo[a], shape.ghost);
          EXPECT_LE(box.hi[a], shape.ghost + shape.cells[a]);
        }
      }
      EXPECT_EQ(covered, d.local_cell_count());  // with disjointness below, an exact partition
      for (std::size_t b = 0; b < ranges.shell.size(); ++b) {
        for (std::size_t c = b + 1; c <= ranges.shell.size(); ++c) {
          const auto& x = ranges.shell[b];
          const auto& y = c < ranges.shell.size() ? ranges.shell[c] : ranges.interior;
          bool overlap = !y.empty();
          for (int a = 0; a < 3; ++a) overlap = overlap && x.lo[a] < y.hi[a] && y.lo[a] < x.hi[a];
          EXPECT_FALSE(overlap);
        }
      }
      // Within `width` of an interior cell, only owned cells or ghosts of axes that wrap onto this rank.
      for (int a = 0; a < 3; ++a) {
        if (ranges.interior.empty() || d.wraps_onto_itself(a)) continue;
        EXPECT_GE(ranges.interior.lo[a] - width, shape.ghost);
        EXPECT_LE(ranges.interior.hi[a] + width, shape.ghost + shape.cells[a]);
      }
    }
  });
}
