// The velocity stage's two forms, by tiles of staged planes (the GPU form, one thread per team on CPUs) and by rows
// (the portable form, the reference here): the same u* and the same kept tendency bit for bit at every view point of
// every rank (ghosts and boundary faces included), with teams of a few planes and of the chosen number, in 2D and 3D,
// ghost widths 1 and 2, rows with and without padding points past the ghosts, central and upwind advection, the three
// weightings of an RK3 step and two of the SSP RK3 (which blend in the step's start), with and without the viscous
// term. Tiles that run past the view (40 + 2 ghosts is not a multiple of 32, 13 + 2 not one of 6) and teams that end
// inside the column are both exercised; the stage that production runs on this build is one of the two. Compiled for a
// GPU, the two forms may contract multiply-adds differently: there they agree to rounding, not bit for bit.
#include "flow_test_support.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
#include "operators/velocity_stage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

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
  eddy::operators::StageWeights weights;
};

std::string describe(const Case& c) {
  std::ostringstream label;
  label << c.dimensions << "D ghost " << c.ghost << " padding " << c.row_padding
        << (c.scheme == AdvectionScheme::upwind ? " upwind" : " central") << " weights " << c.weights.current << "/"
        << c.weights.previous << "/" << c.weights.start << (c.weights.next_stage_reads_tendency ? " keeps R" : "");
  return label.str();
}

// The stage's targets, filled with values the stage must overwrite (all but the rows' padding) or read (R_{k-1}).
eddy::operators::StageTargets make_targets(const eddy::fields::LocalShape& shape, const FaceVector& start, int rank,
                                           const char* name) {
  const eddy::operators::StageTargets targets{FaceVector::allocate(std::string("next_") + name, shape),
                                              FaceVector::allocate(std::string("rhs_") + name, shape), start};
  fill(targets.next, rank, 2.0);
  fill(targets.tendency, rank, 1.0);
  return targets;
}

// The difference the two forms may show: none on CPUs; on GPUs, where the compiler contracts each form's
// multiply-adds its own way, rounding of values of order one (u*) and of order a hundred (R_k).
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
constexpr Real velocity_rounding = 1e-13, tendency_rounding = 1e-11;
#else
constexpr Real velocity_rounding = 0, tendency_rounding = 0;
#endif

// `tiles` holds the u* of `rows` at every view point off the padding, which neither writes, and its R_k at every view
// point: bit for bit on CPUs.
void expect_same_bits(const Case& c, const eddy::operators::StaggeredGrid& grid,
                      const eddy::operators::StageTargets& rows, const eddy::operators::StageTargets& tiles,
                      const std::string& what) {
  const Field next_rows[3] = {rows.next.u, rows.next.v, rows.next.w};
  const Field next_tiles[3] = {tiles.next.u, tiles.next.v, tiles.next.w};
  const Field rhs_rows[3] = {rows.tendency.u, rows.tendency.v, rows.tendency.w};
  const Field rhs_tiles[3] = {tiles.tendency.u, tiles.tendency.v, tiles.tendency.w};
  for (int a = 0; a < grid.components(); ++a) {
    EXPECT_LE(eddy::testing::max_difference_off_padding(next_tiles[a], next_rows[a], c.row_padding), velocity_rounding)
        << describe(c) << ", " << what << ", u* component " << a;
    EXPECT_LE(eddy::testing::max_view_difference(rhs_tiles[a], rhs_rows[a]), tendency_rounding)
        << describe(c) << ", " << what << ", tendency component " << a;
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
  const FaceVector start = FaceVector::allocate("start", shape);
  fill(start, rank, 4.0);

  for (const Real viscosity : {0.05, 0.0}) {
    const auto rows = make_targets(shape, start, rank, "rows");
    eddy::operators::velocity_stage_by_rows(state, rows, grid, c.scheme, viscosity, c.weights);
    // The stage changes the advanced faces (not a copy).
    const Field next_rows[3] = {rows.next.u, rows.next.v, rows.next.w};
    const Field velocity[3] = {state.u, state.v, state.w};
    for (int a = 0; a < grid.components(); ++a) {
      EXPECT_GT(eddy::testing::max_view_difference(next_rows[a], velocity[a]), 1e-4)
          << describe(c) << ", viscosity " << viscosity << ", component " << a;
    }
    for (const int planes : {0, 2, 3}) {  // 0: as many planes per team as the grid takes
      const auto tiles = make_targets(shape, start, rank, "tiles");
      eddy::operators::velocity_stage_by_tiles(state, tiles, grid, c.scheme, viscosity, c.weights, planes);
      std::ostringstream what;
      what << "tiles of " << planes << " planes per team, viscosity " << viscosity;
      expect_same_bits(c, grid, rows, tiles, what.str());
    }
    const auto production = make_targets(shape, start, rank, "production");
    eddy::operators::velocity_stage(state, production, grid, c.scheme, viscosity, c.weights);
    expect_same_bits(c, grid, rows, production, "production's form, viscosity " + std::to_string(viscosity));
  }
}

}  // namespace

TEST(VelocityStage, TilesOfStagedPlanesGiveTheBitsOfTheRowsEverywhere) {
  const eddy::operators::StageWeights first{0.02, 0, true}, second{0.03, -0.01, true}, last{0.02, -0.015, false};
  const eddy::operators::StageWeights blend_second{0.005, 0, false, 0.75}, blend_last{0.013, 0, false, 1.0 / 3.0};
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
