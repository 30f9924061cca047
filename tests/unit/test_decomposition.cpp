#include "core/error.hpp"
#include "grid/decomposition.hpp"

#include <gtest/gtest.h>

using eddy::grid::GlobalGrid;

TEST(Decomposition, BlocksCoverTheAxisWithoutGaps) {
  for (int cells : {7, 8, 33}) {
    for (int parts = 1; parts <= 5; ++parts) {
      int next = 0;
      for (int c = 0; c < parts; ++c) {
        EXPECT_EQ(eddy::grid::block_offset(cells, parts, c), next);
        next += eddy::grid::block_size(cells, parts, c);
      }
      EXPECT_EQ(next, cells);
    }
  }
}

TEST(Decomposition, AutomaticSplitMinimisesSurface) {
  GlobalGrid cube{3, {64, 64, 64}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  EXPECT_EQ(eddy::grid::choose_process_dims(cube, 8), (eddy::Int3{2, 2, 2}));
  GlobalGrid slab{3, {256, 64, 64}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  EXPECT_EQ(eddy::grid::choose_process_dims(slab, 4), (eddy::Int3{4, 1, 1}));
  GlobalGrid plane{2, {64, 64, 1}, {1, 1, 1}, {0, 0, 0}, {false, false, true}};
  const auto dims = eddy::grid::choose_process_dims(plane, 4);
  EXPECT_EQ(dims[0] * dims[1], 4);
  EXPECT_EQ(dims[2], 1);
}

TEST(Decomposition, RequestedDimsAreKeptAndImpossibleOnesRejected) {
  GlobalGrid cube{3, {16, 16, 16}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  EXPECT_EQ(eddy::grid::choose_process_dims(cube, 4, {4, 0, 0}), (eddy::Int3{4, 1, 1}));
  EXPECT_THROW(eddy::grid::choose_process_dims(cube, 4, {3, 0, 0}), eddy::Error);
}

TEST(Decomposition, PeriodicNeighboursWrap) {
  GlobalGrid grid{2, {8, 8, 1}, {1, 1, 1}, {0, 0, 0}, {true, false, true}};
  const auto d = eddy::grid::plan_decomposition(grid, 2, 0, {2, 1, 1});
  EXPECT_EQ(d.neighbour[0][0], 1);
  EXPECT_EQ(d.neighbour[0][1], 1);
  EXPECT_EQ(d.neighbour[1][0], -1);
  EXPECT_EQ(d.neighbour[2][0], 0);
}
