// The fused Runge-Kutta stage (tendency and update in one kernel, u* in a second buffer) against the stored tendency
// and in-place update: the same velocity at every view point, ghosts and boundary faces included, after the three
// stages of RK3, in 2D and 3D, with walls and periodic axes, central and upwind advection.
#include "flow_test_support.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
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

void compare_paths(const Case& c) {
  const auto decomp = eddy::grid::decompose(
      eddy::testing::walled_box(c.dimensions, {12, 10, c.dimensions == 3 ? 9 : 1}), MPI_COMM_SELF);
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const auto grid = eddy::operators::make_staggered_grid(decomp, shape);
  auto fused_state = eddy::fields::FlowState::allocate(shape);
  auto separate_state = eddy::fields::FlowState::allocate(shape);
  auto start = eddy::fields::FlowState::allocate(shape);
  fill_velocity(fused_state);
  fill_velocity(separate_state);
  fill_velocity(start);
  eddy::time::MomentumStage fused(shape, false), separate(shape, true);
  ASSERT_TRUE(fused.fused());
  ASSERT_FALSE(separate.fused());

  const Real dt = 0.01, viscosity = 0.05;
  const auto table = eddy::time::stage_table(eddy::config::TimeScheme::rk3);
  bool any_swap = false;
  for (int s = 0; s < table.count; ++s) {
    const auto& stage = table.stages[s];
    const bool next_reads = s + 1 < table.count && table.stages[s + 1].zeta != 0;
    const eddy::time::StageWeights weights{dt * stage.gamma, dt * stage.zeta, next_reads};
    fused.compute(fused_state, grid, c.scheme, viscosity, weights, {});
    separate.compute(separate_state, grid, c.scheme, viscosity, weights, {});
    any_swap = fused.finish(fused_state, grid) || any_swap;
    EXPECT_FALSE(separate.finish(separate_state, grid));
  }
  EXPECT_TRUE(any_swap);

  std::ostringstream label;
  label << c.dimensions << "D " << (c.scheme == AdvectionScheme::upwind ? "upwind" : "central");
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
  for (int dimensions : {2, 3}) {
    for (auto scheme : {AdvectionScheme::central, AdvectionScheme::upwind}) compare_paths({dimensions, scheme});
  }
}
