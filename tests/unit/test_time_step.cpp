// The time step: adaptive steps land on the field output times (two even steps rather than one and a sliver) and on
// the end time; fixed steps only on the end time.
#include "time/time_step.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using eddy::time::choose_time_step;
using eddy::time::next_output_time;

constexpr double unbounded = std::numeric_limits<double>::infinity();

TEST(TimeStep, NextOutputTimeIsTheFollowingMultiple) {
  eddy::config::OutputConfig output;
  output.interval_time = 0.5;
  EXPECT_DOUBLE_EQ(next_output_time(output, 0.0), 0.5);
  EXPECT_DOUBLE_EQ(next_output_time(output, 0.3), 0.5);
  EXPECT_DOUBLE_EQ(next_output_time(output, 0.5 - 1e-12), 1.0);  // a multiple reached within round-off counts
  EXPECT_DOUBLE_EQ(next_output_time(output, 1.2), 1.5);
  output.interval_time = 0;
  EXPECT_EQ(next_output_time(output, 0.3), unbounded);
}

TEST(TimeStep, AdaptiveStepsLandOnOutputTimesAndFixedStepsDoNot) {
  eddy::config::TimeConfig time;
  time.end_time = 10;
  time.dt = 0.1;
  const eddy::time::StepLimits limits{0.1, unbounded};
  // Far from the output: the limit. Within one step: exactly onto it. Within two: half the way.
  EXPECT_DOUBLE_EQ(choose_time_step(time, limits, 0.0, 0.1, 1.0), 0.1);
  EXPECT_DOUBLE_EQ(choose_time_step(time, limits, 0.95, 0.1, 1.0), 1.0 - 0.95);
  EXPECT_DOUBLE_EQ(choose_time_step(time, limits, 0.85, 0.1, 1.0), (1.0 - 0.85) / 2);
  // Marching with the rule reaches the output time exactly, with no step below half the limit.
  eddy::config::OutputConfig output;
  output.interval_time = 1.0;
  double now = 0, previous = 0.1, smallest = 1;
  while (now < 1.0 - 1e-9) {
    const double dt = choose_time_step(time, limits, now, previous, next_output_time(output, now));
    smallest = std::min(smallest, dt);
    now += dt;
    previous = dt;
  }
  EXPECT_NEAR(now, 1.0, 1e-12);
  EXPECT_GE(smallest, 0.05 - 1e-12);
  time.adaptive = false;
  EXPECT_DOUBLE_EQ(choose_time_step(time, limits, 0.95, 0.1, 1.0), 0.1);
  EXPECT_DOUBLE_EQ(choose_time_step(time, limits, 9.95, 0.1, 1.0), 10 - 9.95);
}

}  // namespace
