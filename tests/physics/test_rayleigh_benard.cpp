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

// The layer at `rayleigh` run to `end_time`: kinetic energy after 20 steps and at the end, and the last step.
struct LayerRun {
  double early_energy, final_energy;
  eddy::StepRecord last;
};

LayerRun run_layer(double rayleigh, double end_time) {
  auto deck = layer(rayleigh);
  deck.time.end_time = end_time;
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  sim.advance(20);
  const double early_energy = sim.kinetic_energy();
  while (!sim.finished()) sim.advance(1);
  return {early_energy, sim.kinetic_energy(), sim.history().back()};
}

TEST(RayleighBenard, BelowOnsetTheLayerConductsWithNusseltOne) {
  const auto run = run_layer(1000, 30);
  const auto& last = run.last;
  EXPECT_LT(run.final_energy, 0.1 * run.early_energy);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_nusselt_y_low"), 1.0, 1e-3);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_nusselt_y_high"), 1.0, 1e-3);
  EXPECT_NEAR(eddy::testing::extra_value(last, "temperature_mean"), 0.5, 1e-3);
  EXPECT_GE(eddy::testing::extra_value(last, "temperature_min"), 0.0);
  EXPECT_LE(eddy::testing::extra_value(last, "temperature_max"), 1.0);
}

TEST(RayleighBenard, AboveOnsetConvectionGrowsAndCarriesHeat) {
  const auto run = run_layer(5000, 40);
  EXPECT_GT(run.final_energy, 100 * run.early_energy);
  EXPECT_GT(eddy::testing::extra_value(run.last, "temperature_nusselt_y_low"), 1.5);
}

}  // namespace
