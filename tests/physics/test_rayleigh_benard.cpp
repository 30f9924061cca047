// Rayleigh-Benard convection in a 2 x 1 periodic layer heated from below (critical Rayleigh number 1708 for
// no-slip walls, critical wavelength 2.016): below the onset a perturbation dies and pure conduction (Nu = 1) is
// left; above it the perturbation grows into convection rolls.
#include "physics/coupled_physics.hpp"
#include "physics_test_support.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

namespace {

eddy::config::Deck layer(double ra) {
  auto deck = eddy::testing::heated_box_deck(32, 16, 2.0, 1, true, ra, 0.71);
  deck.scalars[0].initial.amplitude = 0.01;
  return deck;
}

TEST(RayleighBenard, BelowOnsetTheLayerConductsWithNusseltOne) {
  auto deck = layer(1000);
  deck.time.end_time = 30;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(20);
  const double early_energy = sim.kinetic_energy();
  while (!sim.finished()) sim.advance(1);
  const auto& last = sim.history().back();
  EXPECT_LT(sim.kinetic_energy(), 0.1 * early_energy);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_nusselt_y_low"), 1.0, 1e-3);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_nusselt_y_high"), 1.0, 1e-3);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_mean"), 0.5, 1e-3);
  EXPECT_GE(eddy::testing::extra_value(last, "temperature_min"), 0.0);
  EXPECT_LE(eddy::testing::extra_value(last, "temperature_max"), 1.0);
}

TEST(RayleighBenard, AboveOnsetConvectionGrowsAndCarriesHeat) {
  auto deck = layer(5000);
  deck.time.end_time = 40;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(20);
  const double early_energy = sim.kinetic_energy();
  while (!sim.finished()) sim.advance(1);
  EXPECT_GT(sim.kinetic_energy(), 100 * early_energy);
  EXPECT_GT(eddy::testing::extra_value(sim.history().back(), "temperature_nusselt_y_low"), 1.5);
}

}  // namespace
