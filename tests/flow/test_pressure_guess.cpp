// The initial guesses of the Runge-Kutta stages' pressure solves (time/pressure_guess.hpp): where each stage's pressure
// changes linearly from step to step, stage k >= 1 starts from its exact pressure from the second step on, and under
// the SSP RK3 each stage from the pressures nearest in time; the first step, Wray's stage 0, and a one-stage scheme
// start from the pressure as they find it, the step's end removes the pressure's mean where it makes the next step's
// first guess, and a guess restored from what a checkpoint holds goes on with the same guesses.
#include "flow_test_support.hpp"
#include "grid/decomposition.hpp"
#include "round_off.hpp"
#include "time/pressure_guess.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using eddy::Field;
using eddy::Real;

// An odd number of view points (11 x 9 x 7), so that the span kernels that take two values per thread have one left.
eddy::fields::LocalShape block_shape() {
  eddy::grid::GlobalGrid g;
  g.dim = 3;
  g.cells = {9, 7, 5};
  return eddy::fields::local_shape(eddy::grid::decompose(g, MPI_COMM_SELF), 1);
}

// The pressure of stage `stage` in step `step`: a base field, a drift per step and an offset per stage, each with its
// own shape, at every view point, less `mean`.
void fill_pressure(const Field& p, int step, int stage, Real mean = 0) {
  auto host = Kokkos::create_mirror_view(p);
  for (int k = 0; k < static_cast<int>(p.extent(2)); ++k)
    for (int j = 0; j < static_cast<int>(p.extent(1)); ++j)
      for (int i = 0; i < static_cast<int>(p.extent(0)); ++i) {
        const Real base = std::sin(0.7 * i) * std::cos(0.4 * j) + 0.1 * k;
        const Real drift = 0.05 * std::cos(0.3 * i + 0.2 * k) + 0.01 * j;
        const Real offset = 0.3 * stage * std::sin(0.5 * j + 0.9 * k + stage) + 0.2 * stage * stage;
        const Real pressure = base + step * drift + offset;
        host(i, j, k) = pressure - mean;
      }
  Kokkos::deep_copy(p, host);
}

}  // namespace

// With the step's end removing the pressure's mean (Wray's RK3, the second pass) the pressure is the last solve's
// result less its mean, stage 0 starts from it unchanged, and the later stages' guesses, which read the solves' own
// results, stay exact.
TEST(PressureGuess, StagesStartFromTheirExactPressureWhenItChangesLinearlyFromStepToStep) {
  const auto shape = block_shape();
  EXPECT_TRUE(eddy::time::PressureGuess(shape, 3).removes_mean_at_step_end());
  EXPECT_FALSE(eddy::time::PressureGuess(shape, 3, true).removes_mean_at_step_end());
  EXPECT_FALSE(eddy::time::PressureGuess(shape, 1).removes_mean_at_step_end());
  for (const bool step_end : {false, true}) {
    SCOPED_TRACE(step_end ? "the step's end removes the mean" : "the pressure kept as solved");
    eddy::time::PressureGuess guess(shape, 3);
    Field p = eddy::fields::make_field("p", shape), expected = eddy::fields::make_field("expected", shape),
          found = eddy::fields::make_field("found", shape);
    for (int step = 0; step < 4; ++step) {
      for (int stage = 0; stage < 3; ++stage) {
        SCOPED_TRACE("step " + std::to_string(step) + " stage " + std::to_string(stage));
        Kokkos::deep_copy(found, p);
        guess.before_solve(p, stage);
        if (step == 0 || stage == 0) {
          EXPECT_EQ(eddy::testing::max_view_difference(p, found), 0);  // the pressure as the stage found it
        } else {
          fill_pressure(expected, step, stage);
          EXPECT_LE(eddy::testing::max_view_difference(p, expected), eddy::testing::round_off(1e-13, 1e-5));
          EXPECT_GT(eddy::testing::max_view_difference(found, expected),
                    0.1);  // the previous stage's pressure was far from it
        }
        fill_pressure(p, step, stage);  // what the solve returns
        guess.after_solve();
      }
      if (step_end) {
        const Real mean = 0.25 + step;
        guess.end_step(p, mean);
        fill_pressure(expected, step, 2, mean);
        EXPECT_EQ(eddy::testing::max_view_difference(p, expected), 0);
      }
    }
  }
}

// The SSP RK3's stage pressures lie at t, t + dt and t + dt / 2 of their step. Each solve here returns a pressure
// linear in time plus an error of its own: every guess must be its recipe over the solves it names (stage 0 the last
// step's stage 1, stage 1 the extrapolation, stage 2 the mean of this step's two), exact in time, and so carry the
// errors of those solves only.
TEST(PressureGuess, SspStagesStartFromThePressuresNearestInTime) {
  const auto shape = block_shape();
  eddy::time::PressureGuess guess(shape, 3, true);
  Field p = eddy::fields::make_field("p", shape), found = eddy::fields::make_field("found", shape);
  using Host = Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const double stage_time[3] = {0, 1, 0.5};
  // What solve m returned: p at its time, linear from step to step, plus 1e-3 times a pattern of its own.
  const auto solve_result = [&](int m, double t) {
    const int whole = static_cast<int>(std::floor(t));
    Field a = eddy::fields::make_field("a", shape), b = eddy::fields::make_field("b", shape);
    fill_pressure(a, whole, 0);
    fill_pressure(b, whole + 1, 0);
    Host result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    const Host next = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
    for (std::size_t n = 0; n < result.span(); ++n) {
      result.data()[n] += (t - whole) * (next.data()[n] - result.data()[n]) + 1e-3 * std::sin(0.37 * n + 1.7 * m);
    }
    return result;
  };
  std::vector<Host> solves;
  for (int step = 0; step < 4; ++step) {
    for (int stage = 0; stage < 3; ++stage) {
      SCOPED_TRACE("step " + std::to_string(step) + " stage " + std::to_string(stage));
      Kokkos::deep_copy(found, p);
      guess.before_solve(p, stage);
      const Host got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
      const int m = static_cast<int>(solves.size()) - 1;  // the last solve
      if (step == 0 || (stage == 0 && step < 2)) {
        EXPECT_EQ(eddy::testing::max_view_difference(p, found), 0);  // copied: too few solves kept
      } else {
        const double t = step + stage_time[stage];
        const Host exact = solve_result(-1, t);  // p at the stage's time, with an error of no solve's
        double recipe_error = 0, time_error = 0;
        for (std::size_t n = 0; n < got.span(); ++n) {
          const auto q = [&](int back) { return solves[m - back].data()[n]; };
          const Real want = stage == 0 ? q(1) : stage == 1 ? q(0) + (q(2) - q(3)) : Real(0.5) * (q(0) + q(1));
          recipe_error = std::max<double>(recipe_error, std::abs(got.data()[n] - want));
          time_error = std::max<double>(time_error, std::abs(got.data()[n] - exact.data()[n]));
        }
        EXPECT_LE(recipe_error, 1e-13);
        EXPECT_LE(time_error, 3.1e-3);  // the solves' errors, none of the pressure's change in time
      }
      const Host result = solve_result(static_cast<int>(solves.size()), step + stage_time[stage]);
      Kokkos::deep_copy(p, result);
      solves.push_back(result);
      guess.after_solve();
    }
  }
}

TEST(PressureGuess, AOneStageSchemeStartsFromThePressureAsFound) {
  const auto shape = block_shape();
  eddy::time::PressureGuess guess(shape, 1);
  Field p = eddy::fields::make_field("p", shape), found = eddy::fields::make_field("found", shape);
  for (int step = 0; step < 3; ++step) {
    fill_pressure(p, step, 0);
    Kokkos::deep_copy(found, p);
    guess.before_solve(p, 0);
    EXPECT_EQ(eddy::testing::max_view_difference(p, found), 0);
    guess.after_solve();
  }
}

namespace {

// Two steps of `running` (each ended with end_step where `step_end`), then `restarted` restored from what a checkpoint
// of them holds: the kept pressures and the pressure `p`.
void restart_after_two_steps(bool step_end, eddy::time::PressureGuess& running, eddy::time::PressureGuess& restarted,
                             Field& p) {
  EXPECT_TRUE(running.recorded_fields().empty());
  for (int step = 0; step < 2; ++step) {
    for (int stage = 0; stage < 3; ++stage) {
      running.before_solve(p, stage);
      fill_pressure(p, step, stage);
      running.after_solve();
    }
    if (step_end) running.end_step(p, 0.5 + step);
  }
  const auto recorded = running.recorded_fields();
  ASSERT_EQ(recorded.size(), 3u);
  EXPECT_EQ(recorded.front().name, step_end ? "pressure_before_0" : "pressure_before_1");
  std::vector<std::string> names;
  for (const auto& into : restarted.all_fields()) {
    for (const auto& from : recorded) {
      if (from.name == into.name) {
        Kokkos::deep_copy(into.field, from.field);
        names.push_back(from.name);
      }
    }
  }
  restarted.restore(names, p);
}

}  // namespace

// A run's guess after two steps (`running`, its pressure `p`) and one restored from its checkpoint (`restarted`, its
// pressure `q`); the parameter: whether the steps ended with end_step.
class RestoredGuess : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    restart_after_two_steps(GetParam(), running, restarted, p);
    Kokkos::deep_copy(q, p);
  }
  const eddy::fields::LocalShape shape = block_shape();
  eddy::time::PressureGuess running{shape, 3}, restarted{shape, 3};
  Field p = eddy::fields::make_field("p", shape), q = eddy::fields::make_field("q", shape);
};

// A checkpoint after step 1 holds the pressure and the kept ones; the guess restored from them goes on bit for bit,
// written after end_step (the parameter) or without it (the SSP RK3, checkpoints of earlier versions).
TEST_P(RestoredGuess, ContinuesWithTheSameGuesses) {
  for (int stage = 0; stage < 3; ++stage) {
    SCOPED_TRACE("stage " + std::to_string(stage));
    running.before_solve(p, stage);
    restarted.before_solve(q, stage);
    EXPECT_EQ(eddy::testing::max_view_difference(p, q), 0);
    if (stage > 0) {
      Field expected = eddy::fields::make_field("expected", shape);
      fill_pressure(expected, 2, stage);
      EXPECT_LE(eddy::testing::max_view_difference(q, expected), eddy::testing::round_off(1e-13, 1e-5));
    }
    fill_pressure(p, 2, stage);
    fill_pressure(q, 2, stage);
    running.after_solve();
    restarted.after_solve();
  }
}

// The step after a restart, abandoned after its first solve, gives back the pressure it started from: bit for bit
// where the run went on, to within a rounding where it restarted from a checkpoint written after end_step (whose
// removed mean the restored guess takes from the pressures).
TEST_P(RestoredGuess, AnAbandonedStepGivesBackThePressureItStartedFrom) {
  const Field started = eddy::fields::make_field("started", shape);
  Kokkos::deep_copy(started, p);
  running.before_solve(p, 0);
  restarted.before_solve(q, 0);
  fill_pressure(p, 2, 0);
  fill_pressure(q, 2, 0);
  EXPECT_EQ(eddy::testing::max_view_difference(running.abandon_step(), started), 0);
  EXPECT_LE(eddy::testing::max_view_difference(restarted.abandon_step(), started), 1e-14);
}

INSTANTIATE_TEST_SUITE_P(PressureGuess, RestoredGuess, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "AfterTheStepEnd" : "WithoutTheStepEnd";
                         });
