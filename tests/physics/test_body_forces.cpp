// Immersed bodies: a body at rest in fluid at rest feels no force, the forcing sets the solid faces to rest, the
// forces on a cylinder that crosses rank boundaries are the same on any number of ranks, a cylinder on the centre line
// of the channel feels no lift (the forcing is mirror-symmetric), and the drag at a given time does not depend on the
// step sizes that led there (a shortened last step, adaptive steps).
#include "../flow/flow_test_support.hpp"
#include "grid/global_grid.hpp"
#include "physics/coupled_physics.hpp"
#include "physics/immersed_boundary.hpp"
#include "physics_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

// Drag coefficient of the Re = 20 cylinder on 128 x 24 cells at t = 1.5 with a fixed step `dt` (0: adaptive, CFL 0.5).
double drag_at_end(double dt, eddy::config::TimeScheme scheme = eddy::config::TimeScheme::rk3) {
  auto deck = eddy::testing::cylinder_channel_deck(128, 24);
  deck.time.scheme = scheme;
  deck.time.end_time = 1.5;
  deck.time.adaptive = dt == 0;
  deck.time.cfl = 0.5;
  deck.time.dt = dt > 0 ? dt : 0.005;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  while (!sim.finished()) sim.advance(1);
  EXPECT_NEAR(sim.time(), 1.5, 1e-12);
  return sim.physics().body_forces()[0].coefficient[0];
}

TEST(BodyForces, BodiesAtRestInFluidAtRestFeelNoForce) {
  auto deck = eddy::testing::periodic_box_deck(3, 16);
  deck.domain.length = {1, 1, 1};
  for (auto& face : deck.boundary.faces) face.type = eddy::config::BoundaryType::no_slip;
  eddy::config::BodyConfig sphere;
  sphere.name = "sphere";
  sphere.shape = eddy::config::BodyShape::sphere;
  sphere.center = {0.4, 0.5, 0.55};
  sphere.radius = 0.2;
  eddy::config::BodyConfig box;
  box.name = "box";
  box.shape = eddy::config::BodyShape::box;
  box.center = {0.8, 0.3, 0.3};
  box.size = {0.1, 0.2, 0.25};
  deck.bodies = {sphere, box};
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(3);
  for (const auto& body : sim.physics().body_forces()) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(body.force[c], 0.0) << body.name << " component " << c;
  }
  EXPECT_EQ(sim.kinetic_energy(), 0.0);
}

TEST(BodyForces, SolidFacesAreAtRestAfterTheForcing) {
  auto deck = eddy::testing::cylinder_channel_deck(128, 24);
  deck.time.max_steps = 5;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(5);
  // Inside the cylinder the velocity is what the last projection left: O(dt) of the forcing's rest state.
  const auto u = eddy::testing::gather(sim, 0);
  const auto& g = sim.decomposition().global;
  const double h = g.spacing(0);
  double inside = 0, outside = 0;
  for (int j = 0; j < g.cells[1]; ++j) {
    for (int i = 0; i < g.cells[0]; ++i) {
      const double x = (i + 1) * h - 0.2, y = (j + 0.5) * h - 0.2;
      const double r = std::sqrt(x * x + y * y);
      if (r < 0.03) inside = std::max(inside, std::abs(u(i, j, 0)));
      if (r > 0.1) outside = std::max(outside, std::abs(u(i, j, 0)));
    }
  }
  EXPECT_LT(inside, 0.05 * outside);
}

TEST(BodyForces, CylinderForcesAgreeOnAnyRankCount) {
  auto deck = eddy::testing::cylinder_channel_deck(128, 24);
  deck.bodies[0].center = {0.22, 0.21, 0};  // across the rank boundaries of the 2 x 2 split
  deck.time.max_steps = 8;
  eddy::parallel::Context world;
  eddy::time::Simulation distributed(deck, world, {"", true});
  distributed.advance(8);
  double result[3] = {distributed.physics().body_forces()[0].force[0], distributed.physics().body_forces()[0].force[1],
                      0};
  if (world.rank() == 0) {
    eddy::parallel::Context alone(MPI_COMM_SELF);
    eddy::time::Simulation serial(deck, alone, {"", true});
    serial.advance(8);
    const auto& force = serial.physics().body_forces()[0].force;
    result[2] =
        std::max(std::abs(force[0] - result[0]), std::abs(force[1] - result[1])) / std::max(std::abs(force[0]), 1e-300);
    EXPECT_GT(std::abs(force[0]), 0.0);
  }
  MPI_Bcast(result, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_LE(result[2], 1e-9) << "drag " << result[0] << " lift " << result[1];
}

TEST(BodyForces, CylinderOnTheCentreLineFeelsNoLift) {
  auto deck = eddy::testing::cylinder_channel_deck(128, 24);
  deck.bodies[0].center = {0.2, 0.205, 0};  // the channel's centre line, a row of faces of this grid
  deck.time.dt = 0.02;
  deck.time.adaptive = false;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(20);
  const auto& coefficient = sim.physics().body_forces()[0].coefficient;
  EXPECT_GT(coefficient[0], 1.0);
  EXPECT_LT(std::abs(coefficient[1]), 1e-8 * coefficient[0]);
}

TEST(BodyForces, DragDoesNotDependOnTheStepHistory) {
  // 75 steps of 0.02; 53 steps of 0.028 and a last one of 0.016; adaptive steps growing from 0.005 to the CFL limit.
  const double fixed = drag_at_end(0.02);
  const double shortened_last = drag_at_end(0.028);
  const double adaptive = drag_at_end(0);
  eddy::parallel::Context world;
  if (world.rank() == 0) {
    std::printf("Cd at t = 1.5: %.6f (dt 0.02), %.6f (dt 0.028, last 0.016), %.6f (adaptive)\n", fixed, shortened_last,
                adaptive);
  }
  EXPECT_GT(fixed, 4.0);
  EXPECT_NEAR(shortened_last / fixed, 1.0, 5e-4)
      << "Cd " << fixed << " with dt 0.02, " << shortened_last << " with dt 0.028 and a shortened last step";
  EXPECT_NEAR(adaptive / fixed, 1.0, 5e-4) << "Cd " << fixed << " with dt 0.02, " << adaptive << " adaptive";
}

TEST(BodyForces, DragIsTheSameUnderEitherRk3) {
  // The SSP RK3's stages change u* by 1, 1/4 and 2/3 of dt times the force; their forces weigh 1/6, 1/6 and 2/3
  // (6.251637 against 6.251674; 11.98 with each stage's change counted whole).
  const double wray = drag_at_end(0.02), ssp = drag_at_end(0.02, eddy::config::TimeScheme::ssp_rk3);
  EXPECT_GT(wray, 4.0);
  EXPECT_NEAR(ssp / wray, 1.0, 1e-4) << "Cd " << wray << " under rk3, " << ssp << " under ssp_rk3";
}

}  // namespace

namespace {

// A disk of radius 0.21 at (0.43, 0.52) in a periodic unit box of 64 x 64 cells.
eddy::config::Deck disk_in_unit_box() {
  auto deck = eddy::testing::periodic_box_deck(2, 64);
  deck.domain.length = {1, 1, 1};
  eddy::config::BodyConfig disk;
  disk.name = "disk";
  disk.center = {0.43, 0.52, 0};
  disk.radius = 0.21;
  deck.bodies = {disk};
  return deck;
}

}  // namespace

// The solid fraction written with the fields: summed over the cells of every rank it is the body's area, within the
// sampling error of 4 x 4 points a cell, and a cell is solid throughout only well inside the body.
TEST(BodyForces, SolidFractionsAddUpToTheBodysArea) {
  const auto deck = disk_in_unit_box();
  eddy::parallel::Context world;
  const auto decomp = eddy::grid::decompose(eddy::grid::global_grid(deck), world.comm());
  const auto fractions = eddy::physics::solid_fractions(deck, decomp);
  double area = 0, deepest_partial = 0;
  const double h = 1.0 / 64;
  std::size_t cell = 0;
  for (int j = 0; j < decomp.local_cells[1]; ++j) {
    for (int i = 0; i < decomp.local_cells[0]; ++i, ++cell) {
      ASSERT_GE(fractions[cell], 0);
      ASSERT_LE(fractions[cell], 1);
      area += fractions[cell] * h * h;
      const double dx = (decomp.offset[0] + i + 0.5) * h - 0.43, dy = (decomp.offset[1] + j + 0.5) * h - 0.52;
      if (fractions[cell] < 1) deepest_partial = std::max(deepest_partial, 0.21 - std::sqrt(dx * dx + dy * dy));
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &area, 1, MPI_DOUBLE, MPI_SUM, world.comm());
  EXPECT_NEAR(area, M_PI * 0.21 * 0.21, 0.005 * M_PI * 0.21 * 0.21);
  EXPECT_LT(deepest_partial, h);  // partly fluid only within a cell of the surface
}

// The cells whose pressure the forcing sets (written as NaN): every fully solid cell, and besides those only cells
// within a cell of the surface; some of them have their centre in the fluid (the layer the flow cannot reach).
TEST(BodyForces, ForcedCellsAreTheSolidAndOneLayerAlongItsSurface) {
  const auto deck = disk_in_unit_box();
  eddy::parallel::Context world;
  const auto decomp = eddy::grid::decompose(eddy::grid::global_grid(deck), world.comm());
  const auto fractions = eddy::physics::solid_fractions(deck, decomp);
  const auto forced = eddy::physics::forced_cells(deck, decomp);
  ASSERT_EQ(forced.size(), fractions.size());
  const double h = 1.0 / 64;
  int fluid_centred = 0;
  std::size_t cell = 0;
  for (int j = 0; j < decomp.local_cells[1]; ++j) {
    for (int i = 0; i < decomp.local_cells[0]; ++i, ++cell) {
      const double dx = (decomp.offset[0] + i + 0.5) * h - 0.43, dy = (decomp.offset[1] + j + 0.5) * h - 0.52;
      const double distance = std::sqrt(dx * dx + dy * dy) - 0.21;
      if (fractions[cell] >= 1) {
        EXPECT_TRUE(forced[cell]) << "solid cell " << i << ", " << j;
      }
      if (forced[cell]) {
        EXPECT_LT(distance, h) << "cell " << i << ", " << j;
      }
      if (forced[cell] && distance > 0) ++fluid_centred;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &fluid_centred, 1, MPI_INT, MPI_SUM, world.comm());
  EXPECT_GT(fluid_centred, 0);
}
