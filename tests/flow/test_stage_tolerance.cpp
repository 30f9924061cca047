// pressure.intermediate_rtol: the solves of a step's Runge-Kutta stages before the last stop at their own relative
// residual, the last stage's at pressure.rtol, so the step ends about as divergence-free as without it.
#include "flow_test_support.hpp"
#include "round_off.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

namespace {

using eddy::testing::gather;
using eddy::testing::GlobalField;

// A random 3D flow stepped by Wray's RK3, solved by multigrid to 1e-9 (the earlier stages to `intermediate_rtol`).
std::unique_ptr<eddy::time::Simulation> stepped_flow(eddy::parallel::Context& context, double intermediate_rtol,
                                                     int steps) {
  auto deck = eddy::testing::periodic_box_deck(3, 16);
  eddy::testing::random_stream_by_fixed_steps(deck, {0.3, -0.2, 0.1}, 0.5, eddy::config::TimeScheme::rk3, 0.02);
  deck.physics.viscosity = 0.01;
  deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;
  deck.pressure.rtol = 1e-9;
  deck.pressure.atol = 0;
  deck.pressure.intermediate_rtol = intermediate_rtol;
  auto sim = std::make_unique<eddy::time::Simulation>(deck, context, eddy::time::RunOptions{"", true});
  sim->advance(steps);
  return sim;
}

TEST(StageTolerance, EarlierStagesStopAtTheirToleranceAndTheStepEndsAtRtol) {
  eddy::parallel::Context context;
  constexpr int steps = 4;
  const auto tight = stepped_flow(context, 0, steps);
  const auto loose = stepped_flow(context, 1e-2, steps);
  int tight_iterations = 0, loose_iterations = 0;
  for (int s = 0; s < steps; ++s) {
    const auto& t = tight->history()[s];
    const auto& l = loose->history()[s];
    tight_iterations += t.poisson_iterations;
    loose_iterations += l.poisson_iterations;
    // The last stage's solve reaches pressure.rtol in both (in single precision, where the residual stalls at
    // round-off), and the step's velocity is about as divergence-free.
    EXPECT_LE(l.poisson_residual, eddy::testing::round_off(1e-9, 1.2e-4)) << "step " << s;
    EXPECT_LE(l.max_divergence, 10 * t.max_divergence + eddy::testing::round_off(1e-12, 1e-5)) << "step " << s;
  }
  EXPECT_LE(loose_iterations, tight_iterations - steps) << tight_iterations << " against " << loose_iterations;
  // The earlier stages' looser pressures change the tendencies a little, not the flow.
  double difference = 0, size = 0;
  for (int c = 0; c < 3; ++c) {
    const GlobalField a = gather(*tight, c), b = gather(*loose, c);
    difference = std::max(difference, eddy::testing::max_difference(a, b));
    for (double value : a.values) size = std::max(size, std::abs(value));
  }
  EXPECT_GT(difference, 0);
  EXPECT_LT(difference, 1e-2 * size) << difference << " of " << size;
}

}  // namespace
