// The differentially heated square cavity of de Vahl Davis (1983) at Ra = 1e4, Pr = 0.71: hot left wall (T = 1),
// cold right wall (T = 0), adiabatic floor and lid. Benchmark: mean Nusselt number 2.243, largest u on the vertical
// centre line 16.178 (at y = 0.823) and largest v on the horizontal centre line 19.617 (at x = 0.119), velocities in
// units of kappa / L. See tests/physics/validation.md for the grid and tolerances.
#include "../flow/flow_test_support.hpp"
#include "physics/coupled_physics.hpp"
#include "physics_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

TEST(HeatedCavity, DeVahlDavisRayleigh1e4) {
  constexpr double ra = 1e4, pr = 0.71;
  constexpr int n = 32;
  auto deck = eddy::testing::heated_box_deck(n, n, 1.0, 0, false, ra, pr);
  deck.time.end_time = 40;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  while (!sim.finished()) sim.advance(1);
  const auto& last = sim.history().back();
  const double nu_hot = eddy::testing::extra_value(last, "temperature_nusselt_x_low");
  const double nu_cold = eddy::testing::extra_value(last, "temperature_nusselt_x_high");
  // Velocities from free-fall units to kappa / L: multiply by L / kappa = sqrt(Ra Pr).
  const double scale = std::sqrt(ra * pr);
  const auto u = eddy::testing::gather(sim, 0);
  const auto v = eddy::testing::gather(sim, 1);
  // u on the faces at x = 0.5 and v on the faces at y = 0.5 (n even), maxima over the faces.
  double u_max = 0, v_max = 0;
  for (int j = 0; j < n; ++j) u_max = std::max(u_max, scale * u(n / 2 - 1, j, 0));
  for (int i = 0; i < n; ++i) v_max = std::max(v_max, scale * v(i, n / 2 - 1, 0));
  if (world.rank() == 0) {
    std::printf("heated cavity %d x %d, t = %g: Nu hot %.4f cold %.4f, u_max %.3f, v_max %.3f\n", n, n, sim.time(),
                nu_hot, nu_cold, u_max, v_max);
  }
  EXPECT_NEAR(nu_hot, 2.243, 0.03 * 2.243);
  EXPECT_NEAR(nu_cold, 2.243, 0.03 * 2.243);
  EXPECT_NEAR(u_max, 16.178, 0.02 * 16.178);
  EXPECT_NEAR(v_max, 19.617, 0.02 * 19.617);
}

}  // namespace
