// A convective outflow face inside the stages of either RK3: a stream through a channel with free-slip walls carries a
// perturbation out through a convective outflow. Both schemes approximate the same solution, so their difference must
// shrink with the step. The SSP RK3 blends the step's start into each stage, the outflow faces included; advancing
// those faces by each stage's weight alone (whose sum over its stages is 23/12, not 1) would keep the difference at
// the size of the transient however small the step.
#include "flow_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using eddy::testing::GlobalField;

std::array<GlobalField, 2> channel_velocity(eddy::config::TimeScheme scheme, double dt) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(2, 16);
  deck.domain.cells = {32, 16, 1};
  deck.domain.length = {2.0, 1.0, 1.0};
  using eddy::config::BoundaryType;
  deck.boundary.faces[0].type = BoundaryType::inflow;
  deck.boundary.faces[0].velocity = {1, 0, 0};
  deck.boundary.faces[1].type = BoundaryType::outflow;
  deck.boundary.faces[1].outflow = eddy::config::OutflowType::convective;
  deck.boundary.faces[2].type = deck.boundary.faces[3].type = BoundaryType::free_slip;
  eddy::testing::random_stream_by_fixed_steps(deck, {1.0, 0.0, 0.0}, 0.3, scheme, dt);
  deck.physics.viscosity = 0.02;
  deck.time.end_time = 0.8;  // the stream has carried the perturbation well into the outflow face
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  return {eddy::testing::gather(sim, 0), eddy::testing::gather(sim, 1)};
}

double scheme_difference(double dt) {
  using eddy::config::TimeScheme;
  const auto wray = channel_velocity(TimeScheme::rk3, dt), ssp = channel_velocity(TimeScheme::ssp_rk3, dt);
  return std::max(eddy::testing::max_difference(wray[0], ssp[0]), eddy::testing::max_difference(wray[1], ssp[1]));
}

TEST(OutflowStages, BothRk3SchemesAgreeOnAConvectiveOutflowAsTheStepShrinks) {
  const double coarse = scheme_difference(0.02), fine = scheme_difference(0.01);
  EXPECT_LT(fine, 1e-4) << coarse << " " << fine;  // 1.0e-5 here; 1.7e-3 with the faces not blended
  EXPECT_GE(eddy::testing::observed_order(coarse, fine), 0.9) << coarse << " " << fine;
}

}  // namespace
