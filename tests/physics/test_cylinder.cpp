// Steady flow past a circular cylinder in the channel of Schafer and Turek (1996), benchmark 2D-1 (Re = 20):
// reference drag coefficient 5.57-5.59, lift coefficient 0.0104-0.0110 (on the mean inflow velocity 0.2 and the
// diameter 0.1) and pressure difference 0.1172-0.1176 between the front and back points of the surface, read by
// probes. See tests/physics/validation.md for the grid and tolerances.
#include "physics/coupled_physics.hpp"
#include "physics_test_support.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace {

TEST(Cylinder, SchaferTurek2D1) {
  auto deck = eddy::testing::cylinder_channel_deck(256, 48);
  deck.time.end_time = 3;  // Cd is steady to 0.1 % from t = 2 on this grid
  // A fixed step (CFL about 0.47), so that the result does not depend on the adaptive step history.
  deck.time.adaptive = false;
  deck.time.dt = 0.0075;
  deck.probes = {{"front", {0.15, 0.2, 0}}, {"back", {0.25, 0.2, 0}}};
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  while (!sim.finished()) sim.advance(1);
  const auto& body = sim.physics().body_forces()[0];
  const auto& last = sim.history().back();
  const double delta_p = eddy::testing::extra_value(last, "front_p") - eddy::testing::extra_value(last, "back_p");
  if (world.rank() == 0) {
    std::printf("cylinder, 256 x 48 cells (11.7 per diameter), t = %g: Cd %.4f, Cl %.4f, Delta p %.5f\n", sim.time(),
                body.coefficient[0], body.coefficient[1], delta_p);
  }
  EXPECT_NEAR(body.coefficient[0], 5.58, 0.2);
  // The lift of this slightly asymmetric layout is small (0.0104-0.0110). At 11.7 cells per diameter its error is set
  // by where the surface falls between the faces: 0.097 here, but 0.056 and -0.106 with the cylinder moved by -h/4
  // and +h/4, while a cylinder on the channel centre line gets 0 to 3e-10 (tests/physics/validation.md). Only that
  // spread is asserted; 512 x 96 cells give 0.0045 and 1024 x 192 0.0111.
  EXPECT_LT(std::abs(body.coefficient[1] - 0.0107), 0.14);
  EXPECT_NEAR(delta_p, 0.1174, 0.0035);  // 3 %
}

}  // namespace
