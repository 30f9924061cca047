#include "core/error.hpp"
#include "grid/decomposition.hpp"

#include <gtest/gtest.h>

#include <string>

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

// Both refusals depend only on the deck and the rank count: every rank raises them alike, so rank 0 alone reports.
TEST(Decomposition, RefusalsNameTheKeyToChangeAndHoldOnEveryRank) {
  GlobalGrid cube{3, {16, 16, 16}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  const auto refusal = [](const GlobalGrid& grid, int ranks, eddy::Int3 requested) {
    try {
      eddy::grid::choose_process_dims(grid, ranks, requested);
    } catch (const eddy::Error& e) {
      EXPECT_TRUE(e.on_every_rank()) << e.what();
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(refusal(cube, 4, {3, 0, 0}).rfind("parallel.process_grid: got [3, 0, 0]", 0), 0u);
  GlobalGrid tiny{2, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {false, false, true}};
  const std::string message = refusal(tiny, 2, {0, 0, 0});
  EXPECT_EQ(message.rfind("domain.cells: 2 ranks cannot share a grid of 1 x 1 cells", 0), 0u) << message;
}

TEST(Decomposition, PeriodicNeighboursWrap) {
  GlobalGrid grid{2, {8, 8, 1}, {1, 1, 1}, {0, 0, 0}, {true, false, true}};
  const auto d = eddy::grid::plan_decomposition(grid, 2, 0, {2, 1, 1});
  EXPECT_EQ(d.neighbour[0][0], 1);
  EXPECT_EQ(d.neighbour[0][1], 1);
  EXPECT_EQ(d.neighbour[1][0], -1);
  EXPECT_EQ(d.neighbour[2][0], 0);
}
