// The fused Runge-Kutta stage (tendency and update in one kernel, u* in a second buffer) against the stored tendency
// and in-place update: the same velocity at every view point, ghosts and boundary faces included, after the stages of
// Wray's RK3, the SSP RK3 (which blends in the step's start) and Euler, in 2D and 3D, with walls and periodic axes,
// central and upwind advection.
#include "config/names.hpp"
#include "flow_test_support.hpp"
#include "grid/decomposition.hpp"
#include "operators/advection.hpp"
#include "operators/staggered_grid.hpp"
#include "round_off.hpp"
#include "time/momentum_stage.hpp"
#include "time/rk_scheme.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::config::AdvectionScheme;

struct Case {
  int dimensions = 3;
  AdvectionScheme scheme = AdvectionScheme::central;
  eddy::config::TimeScheme integrator = eddy::config::TimeScheme::rk3;
};

// A smooth field that is not divergence-free, different per component, with a distinct value at every view point.
void fill_velocity(const eddy::fields::FlowState& state) {
  const Field components[3] = {state.u, state.v, state.w};
  for (int c = 0; c < 3; ++c) {
    auto host = Kokkos::create_mirror_view(components[c]);
    for (int k = 0; k < state.shape.extent(2); ++k)
      for (int j = 0; j < state.shape.extent(1); ++j)
        for (int i = 0; i < state.shape.extent(0); ++i)
          host(i, j, k) = std::sin(0.7 * i + 1.3 * c) * std::cos(0.5 * j - 0.2 * c) + 0.3 * std::sin(0.9 * k + c);
    Kokkos::deep_copy(components[c], host);
  }
}

// A walled box of 12 x 10 (x 9) cells on this rank alone, with one ghost layer.
struct Box {
  eddy::fields::LocalShape shape;
  eddy::operators::StaggeredGrid grid;
};

Box walled_block(int dimensions) {
  const auto decomp =
      eddy::grid::decompose(eddy::testing::walled_box(dimensions, {12, 10, dimensions == 3 ? 9 : 1}), MPI_COMM_SELF);
  const auto shape = eddy::fields::local_shape(decomp, 1);
  return {shape, eddy::operators::make_staggered_grid(decomp, shape)};
}

// A state of `shape` whose velocity fill_velocity sets.
eddy::fields::FlowState filled_state(const eddy::fields::LocalShape& shape) {
  auto state = eddy::fields::FlowState::allocate(shape);
  fill_velocity(state);
  return state;
}

void compare_paths(const Case& c) {
  const auto [shape, grid] = walled_block(c.dimensions);
  auto fused_state = filled_state(shape);
  auto separate_state = filled_state(shape);
  const auto start = filled_state(shape);
  const auto table = eddy::time::stage_table(c.integrator);
  eddy::time::MomentumStage fused(shape, false, table.reads_tendency()), separate(shape, true, table.reads_tendency());
  ASSERT_TRUE(fused.fused());
  ASSERT_FALSE(separate.fused());

  const Real dt = 0.01, viscosity = 0.05;
  const eddy::fields::FaceVector start_velocity{start.u, start.v, start.w};
  bool any_swap = false;
  for (int s = 0; s < table.count; ++s) {
    const auto& stage = table.stages[s];
    const eddy::operators::StageWeights weights{Real(dt * stage.gamma), Real(dt * stage.zeta),
                                                table.next_reads_tendency(s), Real(stage.beta)};
    fused.compute(fused_state, start_velocity, grid, c.scheme, viscosity, weights, {});
    separate.compute(separate_state, start_velocity, grid, c.scheme, viscosity, weights, {});
    any_swap = fused.finish(fused_state, grid) || any_swap;
    EXPECT_FALSE(separate.finish(separate_state, grid));
  }
  EXPECT_TRUE(any_swap);

  std::ostringstream label;
  label << c.dimensions << "D " << (c.scheme == AdvectionScheme::upwind ? "upwind" : "central") << " "
        << eddy::config::to_string(c.integrator);
  const Field fused_components[3] = {fused_state.u, fused_state.v, fused_state.w};
  const Field separate_components[3] = {separate_state.u, separate_state.v, separate_state.w};
  const Field start_components[3] = {start.u, start.v, start.w};
  for (int a = 0; a < grid.components(); ++a) {
    // The stages change the velocity by O(dt); the two paths agree to round-off.
    EXPECT_GT(eddy::testing::max_view_difference(separate_components[a], start_components[a]), 1e-3)
        << label.str() << " component " << a;
    EXPECT_LE(eddy::testing::max_view_difference(fused_components[a], separate_components[a]), 1e-14)
        << label.str() << " component " << a;
  }
}

}  // namespace

TEST(MomentumStage, FusedStagesMatchTheStoredTendencyAndInPlaceUpdateEverywhere) {
  using eddy::config::TimeScheme;
  for (int dimensions : {2, 3}) {
    for (auto scheme : {AdvectionScheme::central, AdvectionScheme::upwind}) {
      for (auto integrator : {TimeScheme::rk3, TimeScheme::ssp_rk3, TimeScheme::euler}) {
        compare_paths({dimensions, scheme, integrator});
      }
    }
  }
}

// The SSP RK3's stages without a stored tendency equal its Shu-Osher form evaluated field by field: u1 = u0 + dt R(u0),
// u2 = 3/4 u0 + 1/4 (u1 + dt R(u1)), u3 = 1/3 u0 + 2/3 (u2 + dt R(u2)), with R from the stored-tendency path.
TEST(MomentumStage, SspStagesBlendTheStepStartAsShuAndOsherWrite) {
  const auto [shape, grid] = walled_block(3);
  auto state = filled_state(shape);
  const auto start = filled_state(shape);
  auto expected = filled_state(shape);
  const auto table = eddy::time::stage_table(eddy::config::TimeScheme::ssp_rk3);
  eddy::time::MomentumStage fused(shape, false, table.reads_tendency());
  const eddy::fields::FaceVector start_velocity{start.u, start.v, start.w};
  const auto tendency = eddy::fields::FaceVector::allocate("tendency", shape);
  const Real dt = 0.01, viscosity = 0.05;
  const double start_share[3] = {0.0, 0.75, 1.0 / 3.0};
  const Field start_components[3] = {start.u, start.v, start.w};
  for (int s = 0; s < table.count; ++s) {
    const auto& stage = table.stages[s];
    ASSERT_EQ(stage.zeta, 0);
    ASSERT_DOUBLE_EQ(stage.beta, start_share[s]);
    ASSERT_DOUBLE_EQ(stage.gamma, 1 - start_share[s]);
    eddy::operators::compute_momentum_tendency(expected, tendency, grid, AdvectionScheme::central, viscosity);
    const Field components[3] = {expected.u, expected.v, expected.w};
    const Field rhs[3] = {tendency.u, tendency.v, tendency.w};
    for (int a = 0; a < 3; ++a) {
      auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), components[a]);
      auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs[a]);
      auto u0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), start_components[a]);
      const auto [lo, hi] = grid.momentum_box(a);
      for (int k = lo[2]; k < hi[2]; ++k)
        for (int j = lo[1]; j < hi[1]; ++j)
          for (int i = lo[0]; i < hi[0]; ++i)
            u(i, j, k) = start_share[s] * u0(i, j, k) + (1 - start_share[s]) * (u(i, j, k) + dt * r(i, j, k));
      Kokkos::deep_copy(components[a], u);
    }
    const eddy::operators::StageWeights weights{Real(dt * stage.gamma), 0, false, Real(stage.beta)};
    fused.compute(state, start_velocity, grid, AdvectionScheme::central, viscosity, weights, {});
    fused.finish(state, grid);
  }
  const Field got[3] = {state.u, state.v, state.w}, want[3] = {expected.u, expected.v, expected.w};
  for (int a = 0; a < 3; ++a) {
    EXPECT_GT(eddy::testing::max_view_difference(got[a], start_components[a]), 1e-3) << "component " << a;
    EXPECT_LE(eddy::testing::max_view_difference(got[a], want[a]), eddy::testing::round_off(1e-14, 1e-6))
        << "component " << a;
  }
}
