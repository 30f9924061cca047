// The GPU loops over the owned span: decoding every point of the span from the first to the last owned cell yields
// each owned cell exactly once, at its flat position in an unpadded x-fastest field, and marks every other point a
// ghost. (The decode runs on the host here; on GPUs the same inline function runs in the kernels.)
#include "fields/field.hpp"
#include "grid/cell_loops.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace {

void expect_span_covers_owned_cells(const eddy::grid::LocalShape& shape) {
  const auto span = eddy::grid::owned_span(shape);
  const int g = shape.ghost;
  const long long row = shape.extent(0), plane = row * shape.extent(1);
  std::set<std::tuple<int, int, int>> seen;
  long long ghosts = 0;
  for (int p = span.first; p <= span.last; ++p) {
    int i = -1, j = -1, k = -1;
    if (!span.owned(p, i, j, k)) {
      ++ghosts;
      continue;
    }
    ASSERT_EQ(i + row * j + plane * k, p);
    ASSERT_TRUE(i >= g && i < g + shape.cells[0] && j >= g && j < g + shape.cells[1] && k >= g &&
                k < g + shape.cells[2])
        << i << " " << j << " " << k;
    EXPECT_TRUE(seen.insert({i, j, k}).second) << "cell visited twice: " << i << " " << j << " " << k;
  }
  const long long owned = static_cast<long long>(shape.cells[0]) * shape.cells[1] * shape.cells[2];
  EXPECT_EQ(static_cast<long long>(seen.size()), owned);
  EXPECT_EQ(span.last - span.first + 1, owned + ghosts);
}

// Adds 1 to every cell for_each_owned_cell visits (a free function: CUDA lambdas cannot live in a test body).
void mark_owned_cells(eddy::Field marks, const eddy::grid::LocalShape& shape) {
  eddy::grid::for_each_owned_cell(
      "test::mark", shape, KOKKOS_LAMBDA(int i, int j, int k) { marks(i, j, k) += 1; });
}

}  // namespace

TEST(CellLoops, OwnedSpanVisitsEveryOwnedCellOnce) {
  for (int ghost : {1, 2}) {
    expect_span_covers_owned_cells({{5, 7, 3}, ghost});
    expect_span_covers_owned_cells({{1, 1, 1}, ghost});
    expect_span_covers_owned_cells({{16, 9, 1}, ghost});  // a 2D block: one cell in z
    expect_span_covers_owned_cells({{3, 1, 6}, ghost});
  }
}

TEST(CellLoops, OwnedSpanRefusesBlocksBeyond32BitPoints) {
  EXPECT_THROW(eddy::grid::owned_span({{1300, 1300, 1300}, 1}), eddy::Error);
  EXPECT_NO_THROW(eddy::grid::owned_span({{1000, 1000, 1000}, 1}));
}

TEST(CellLoops, ForEachOwnedCellTouchesExactlyTheOwnedCells) {
  const eddy::grid::LocalShape shape{{6, 5, 4}, 2};
  auto marks = eddy::fields::make_field("marks", shape);
  mark_owned_cells(marks, shape);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), marks);
  const int g = shape.ghost;
  for (int k = 0; k < shape.extent(2); ++k) {
    for (int j = 0; j < shape.extent(1); ++j) {
      for (int i = 0; i < shape.extent(0); ++i) {
        const bool owned = i >= g && i < g + 6 && j >= g && j < g + 5 && k >= g && k < g + 4;
        EXPECT_EQ(host(i, j, k), owned ? 1.0 : 0.0) << i << " " << j << " " << k;
      }
    }
  }
}
