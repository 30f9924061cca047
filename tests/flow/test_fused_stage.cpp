// The fused velocity stage by tiles of staged planes and by rows against the one-thread-per-point loop: the same u*
// and the same kept tendency at every view point of every rank (ghosts and boundary faces included), for every tiling,
// with teams of a few planes and of the chosen number, in 2D and 3D, ghost widths 1 and 2, rows with and without
// padding points past the ghosts, central and upwind advection, the three weightings of an RK3 step and two of the
// SSP RK3 (which blend in the step's start), and the tilings a run chooses among give the same result bit for
// bit. The rows are also compared without the viscous term. An odd row padding leaves rows that cannot be staged by
// aligned pairs, where the pair tilings take the plain copies. Tiles that run past the view (40 + 2 ghosts is not a
// multiple of 32 or 64) and teams that end inside the column are both exercised.
#include "flow_test_support.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
#include "time/fused_stage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::config::AdvectionScheme;
using eddy::fields::FaceVector;

// A smooth field, different per component, per rank and per `seed`, with a distinct value at every view point.
void fill(const FaceVector& vector, int rank, double seed) {
  const Field components[3] = {vector.u, vector.v, vector.w};
  for (int c = 0; c < 3; ++c) {
    auto host = Kokkos::create_mirror_view(components[c]);
    for (int k = 0; k < static_cast<int>(host.extent(2)); ++k)
      for (int j = 0; j < static_cast<int>(host.extent(1)); ++j)
        for (int i = 0; i < static_cast<int>(host.extent(0)); ++i)
          host(i, j, k) = std::sin(0.7 * i + 1.3 * c + seed) * std::cos(0.5 * j - 0.2 * c + 0.3 * rank) +
                          0.3 * std::sin(0.9 * k + c - seed);
    Kokkos::deep_copy(components[c], host);
  }
}

struct Case {
  int dimensions, ghost, row_padding;
  AdvectionScheme scheme;
  eddy::time::StageWeights weights;
};

std::string describe(const Case& c) {
  std::ostringstream label;
  label << c.dimensions << "D ghost " << c.ghost << " padding " << c.row_padding
        << (c.scheme == AdvectionScheme::upwind ? " upwind" : " central") << " weights " << c.weights.current << "/"
        << c.weights.previous << "/" << c.weights.start << (c.weights.next_stage_reads_tendency ? " keeps R" : "");
  return label.str();
}

std::string describe(const Case& c, const eddy::time::StageTiling& t) {
  std::ostringstream label;
  label << describe(c) << ", tile " << eddy::time::describe(t) << " planes " << t.planes;
  return label.str();
}

// The stage by rows (the CPU loop) leaves u* and R_k as `by_points` does, at every view point off the padding.
void expect_rows_match_points(const Case& c, const eddy::fields::FlowState& state,
                              const eddy::operators::StaggeredGrid& grid, const FaceVector& start,
                              const eddy::time::StageTargets& by_points, Real viscosity, int rank) {
  const eddy::time::StageTargets by_rows{FaceVector::allocate("next_rows", grid.shape),
                                         FaceVector::allocate("rhs_rows", grid.shape), start};
  fill(by_rows.next, rank, 3.0);
  fill(by_rows.tendency, rank, 1.0);
  eddy::time::fused_stage_by_rows(state, by_rows, grid, c.scheme, viscosity, c.weights);
  const Field points[6] = {by_points.next.u,     by_points.next.v,     by_points.next.w,
                           by_points.tendency.u, by_points.tendency.v, by_points.tendency.w};
  const Field rows[6] = {by_rows.next.u,     by_rows.next.v,     by_rows.next.w,
                         by_rows.tendency.u, by_rows.tendency.v, by_rows.tendency.w};
  for (int f = 0; f < 6; ++f) {
    if (f % 3 >= grid.components()) continue;
    EXPECT_LE(eddy::testing::max_difference_off_padding(rows[f], points[f], c.row_padding), 1e-13)
        << describe(c) << ", rows, viscosity " << viscosity << ", field " << f;
  }
}

void compare_loops(const Case& c) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto decomp = eddy::grid::decompose(
      eddy::testing::walled_box(c.dimensions, {40, 13, c.dimensions == 3 ? 9 : 1}), MPI_COMM_WORLD);
  auto shape = eddy::fields::local_shape(decomp, c.ghost);
  shape.row_padding = c.row_padding;
  const auto grid = eddy::operators::make_staggered_grid(decomp, shape);
  auto state = eddy::fields::FlowState::allocate(shape);
  fill({state.u, state.v, state.w}, rank, 0.0);
  const Real viscosity = 0.05;

  const FaceVector start = FaceVector::allocate("start", shape);
  fill(start, rank, 4.0);
  const eddy::time::StageTargets by_points{FaceVector::allocate("next_points", shape),
                                           FaceVector::allocate("rhs_points", shape), start};
  fill(by_points.next, rank, 2.0);  // every point but the padding must be overwritten
  fill(by_points.tendency, rank, 1.0);
  eddy::time::fused_stage_by_points(state, by_points, grid, c.scheme, viscosity, c.weights);
  expect_rows_match_points(c, state, grid, start, by_points, viscosity, rank);
  if (c.weights.previous == 0) {  // the loops without the viscous term
    const eddy::time::StageTargets inviscid{FaceVector::allocate("next_inviscid", shape),
                                            FaceVector::allocate("rhs_inviscid", shape), start};
    fill(inviscid.next, rank, 2.0);
    fill(inviscid.tendency, rank, 1.0);
    eddy::time::fused_stage_by_points(state, inviscid, grid, c.scheme, 0, c.weights);
    expect_rows_match_points(c, state, grid, start, inviscid, 0, rank);
  }

  std::vector<eddy::time::StageTiling> tilings(std::begin(eddy::time::stage_tilings),
                                               std::end(eddy::time::stage_tilings));
  tilings.push_back({32, 4, 2, 8});
  tilings.push_back({32, 8, 3, 4});
  tilings.push_back({32, 8, 3, 5});
  tilings.push_back({32, 8, 3, 5, true});
  tilings.push_back({32, 8, 3, 5, true, true});
  std::vector<eddy::time::StageTargets> default_choices;  // the tilings StageTilingChoice chooses among by default
  for (const auto& tiling : tilings) {
    const eddy::time::StageTargets by_tiles{FaceVector::allocate("next_tiles", shape),
                                            FaceVector::allocate("rhs_tiles", shape), start};
    fill(by_tiles.next, rank, 3.0);
    fill(by_tiles.tendency, rank, 1.0);
    eddy::time::fused_stage_by_tiles(state, by_tiles, grid, c.scheme, viscosity, c.weights, tiling);
    if (&tiling - tilings.data() < eddy::time::stage_tiling_candidates) default_choices.push_back(by_tiles);
    const Field next_points[3] = {by_points.next.u, by_points.next.v, by_points.next.w};
    const Field next_tiles[3] = {by_tiles.next.u, by_tiles.next.v, by_tiles.next.w};
    const Field rhs_points[3] = {by_points.tendency.u, by_points.tendency.v, by_points.tendency.w};
    const Field rhs_tiles[3] = {by_tiles.tendency.u, by_tiles.tendency.v, by_tiles.tendency.w};
    const Field velocity[3] = {state.u, state.v, state.w};
    for (int a = 0; a < grid.components(); ++a) {
      // The stage changes the advanced faces (not a copy), and both loops agree to round-off everywhere but on the
      // padding, which neither writes.
      EXPECT_GT(eddy::testing::max_view_difference(next_points[a], velocity[a]), 1e-4) << describe(c, tiling);
      EXPECT_LE(eddy::testing::max_difference_off_padding(next_tiles[a], next_points[a], c.row_padding), 1e-13)
          << describe(c, tiling) << " u* component " << a;
      EXPECT_LE(eddy::testing::max_view_difference(rhs_tiles[a], rhs_points[a]), 1e-13)
          << describe(c, tiling) << " tendency component " << a;
    }
  }
  // The tilings a run chooses among by timing give the same u* and R_k bit for bit, so the choice never changes a
  // result.
  const auto& a = default_choices[0];
  for (std::size_t other = 1; other < default_choices.size(); ++other) {
    const auto& b = default_choices[other];
    const Field first[6] = {a.next.u, a.next.v, a.next.w, a.tendency.u, a.tendency.v, a.tendency.w};
    const Field second[6] = {b.next.u, b.next.v, b.next.w, b.tendency.u, b.tendency.v, b.tendency.w};
    for (int f = 0; f < 6; ++f) {
      EXPECT_EQ(eddy::testing::max_view_difference(first[f], second[f]), 0)
          << describe(c, tilings[other]) << " field " << f;
    }
  }
}

}  // namespace

TEST(FusedStage, TilesOfStagedPlanesMatchOnePointPerThreadEverywhere) {
  const eddy::time::StageWeights first{0.02, 0, true}, second{0.03, -0.01, true}, last{0.02, -0.015, false};
  const eddy::time::StageWeights blend_second{0.005, 0, false, 0.75}, blend_last{0.013, 0, false, 1.0 / 3.0};
  for (int dimensions : {2, 3}) {
    for (int ghost : {1, 2}) {
      for (int padding : {0, 3, 6}) {
        for (auto scheme : {AdvectionScheme::central, AdvectionScheme::upwind}) {
          for (const auto& weights : {first, second, last, blend_second, blend_last})
            compare_loops({dimensions, ghost, padding, scheme, weights});
        }
      }
    }
  }
}
