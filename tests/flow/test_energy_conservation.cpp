// Inviscid periodic flow with the central scheme: the spatial discretisation conserves kinetic energy, so the drift
// over a fixed time comes from RK3 alone and shrinks like dt^3.
#include "flow_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

double relative_energy_drift(int dimensions, double dt) {
  auto deck = eddy::testing::periodic_box_deck(dimensions, dimensions == 3 ? 8 : 16);
  deck.physics.viscosity = 0;
  deck.initial.type = eddy::config::InitialType::random;
  deck.initial.amplitude = 1;
  deck.time.adaptive = false;
  deck.time.dt = dt;
  deck.time.end_time = 1.0;
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  const double initial = sim.kinetic_energy();
  sim.advance(deck.time.max_steps);  // marches to end_time; run() would also write a run folder
  return std::abs(sim.kinetic_energy() - initial) / initial;
}

TEST(EnergyConservation, InviscidCentralDriftShrinksLikeDtCubed) {
  for (int dim : {2, 3}) {
    const double coarse = relative_energy_drift(dim, 0.04);
    const double fine = relative_energy_drift(dim, 0.02);
    EXPECT_LT(coarse, 0.05) << dim << "D";
    EXPECT_GE(eddy::testing::observed_order(coarse, fine), 2.5) << dim << "D: " << coarse << " " << fine;
  }
}

TEST(EnergyConservation, UpwindDissipatesEnergy) {
  auto deck = eddy::testing::periodic_box_deck(2, 16);
  deck.physics.viscosity = 0;
  deck.numerics.advection = eddy::config::AdvectionScheme::upwind;
  deck.initial.type = eddy::config::InitialType::random;
  deck.time.end_time = 0.5;
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);  // marches to end_time; run() would also write a run folder
  const auto& history = sim.history();
  for (std::size_t n = 1; n < history.size(); ++n) {
    EXPECT_LT(history[n].kinetic_energy, history[n - 1].kinetic_energy) << "step " << history[n].step;
  }
}

}  // namespace
