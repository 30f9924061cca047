// Steady flow past a circular cylinder in the channel of Schafer and Turek (1996), benchmark 2D-1 (Re = 20):
// reference drag coefficient 5.57-5.59 and lift coefficient 0.0104-0.0110 (on the mean inflow velocity 0.2 and the
// diameter 0.1). See tests/physics/validation.md for the grid and tolerances.
#include "physics/coupled_physics.hpp"
#include "physics_test_support.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

TEST(Cylinder, SchaferTurek2D1) {
  auto deck = eddy::testing::cylinder_channel_deck(256, 48);
  deck.time.end_time = 3;  // Cd is steady to 0.1 % from t = 2 on this grid
  // A fixed step (CFL about 0.47), so that the result does not depend on the adaptive step history.
  deck.time.adaptive = false;
  deck.time.dt = 0.0075;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  while (!sim.finished()) sim.advance(1);
  const auto& body = sim.physics().body_forces()[0];
  if (world.rank() == 0) {
    std::printf("cylinder, 256 x 48 cells (11.7 per diameter), t = %g: Cd %.4f, Cl %.4f\n", sim.time(),
                body.coefficient[0], body.coefficient[1]);
  }
  EXPECT_NEAR(body.coefficient[0], 5.58, 0.2);
  // The lift of this slightly asymmetric layout is small (0.0104-0.0110); the direct forcing at 11.7 cells per
  // diameter gets its sign but not its size (about 0.07, see tests/physics/validation.md), so only a bound is asserted.
  EXPECT_GT(body.coefficient[1], 0.0);
  EXPECT_LT(body.coefficient[1], 0.15);
}

}  // namespace
