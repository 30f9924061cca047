// The coarse levels of a V-cycle swept by one team in one kernel (solver/team_levels.hpp) give the cycle of the
// level-by-level kernels: for every face condition, in 2D and 3D, for several smoothing counts, the iterates of a few
// cycles agree to round-off. A V-cycle in a team also starts from a given iterate (the second visit of an F-cycle).
#include "poisson_test_support.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"
#include "solver/multigrid.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

using eddy::Field;
using eddy::Real;
using eddy::solver::CoarseSweep;
using eddy::testing::PoissonSetup;

namespace {

Real source(Real x, Real y, Real z) { return 40 * std::cos(5 * x - 2 * z) * std::sin(7 * y) + x - 0.3 * y * z; }

// |b - L(x)| over the owned cells.
Real residual_norm(Field x, Field b, const eddy::solver::PoissonLevel& level, const PoissonSetup& setup) {
  eddy::Buffer sums("sums", 3);
  eddy::solver::residual_sums(x, b, level, sums, *setup.reducer);
  return std::sqrt(eddy::solver::read_sums<3>(sums)[0]);
}

void expect_team_cycles_agree(int dim, eddy::Int3 cells, const eddy::testing::PressureFaces& faces,
                              const std::array<int, 2>& smoothing, eddy::config::CycleType type) {
  SCOPED_TRACE("dim " + std::to_string(dim) + " V(" + std::to_string(smoothing[0]) + "," +
               std::to_string(smoothing[1]) + ") cycle " + std::to_string(static_cast<int>(type)) + " faces " +
               std::to_string(static_cast<int>(faces[0])) + std::to_string(static_cast<int>(faces[2])) +
               std::to_string(static_cast<int>(faces[4])));
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  config.pre_smooth = smoothing[0];
  config.post_smooth = smoothing[1];
  config.cycle = type;
  Field rhs = setup.field_from(source);
  if (level.singular())
    eddy::solver::subtract_constant(
        rhs, eddy::solver::global_sum(rhs, level, *setup.reducer) / static_cast<Real>(level.global_cells()));
  using eddy::solver::CycleLaunch;
  using eddy::solver::SweepForm;
  eddy::solver::Multigrid by_levels(level, *setup.context, *setup.reducer, config, setup.halo_transport(),
                                    SweepForm::automatic, CycleLaunch::automatic, CoarseSweep::by_levels);
  eddy::solver::Multigrid one_team(level, *setup.context, *setup.reducer, config, setup.halo_transport(),
                                   SweepForm::automatic, CycleLaunch::automatic, CoarseSweep::one_team);
  ASSERT_LT(one_team.team_level(), one_team.level_count()) << one_team.describe();
  ASSERT_EQ(by_levels.team_level(), by_levels.level_count());
  EXPECT_NE(one_team.describe().find("one kernel from"), std::string::npos) << one_team.describe();
  Field x_levels = eddy::fields::make_field("x_levels", p.shape), x_team = eddy::fields::make_field("x_team", p.shape);
  by_levels.top_ghosts().fill(x_levels);
  one_team.top_ghosts().fill(x_team);
  const Real start = residual_norm(x_team, rhs, level, setup);
  for (int cycle = 0; cycle < 4; ++cycle) {
    by_levels.cycle(x_levels, rhs);
    one_team.cycle(x_team, rhs);
  }
  const Real after_team = residual_norm(x_team, rhs, level, setup);
  // The cycles converge (without post-smoothing the interpolated correction's roughness stays in the residual).
  if (smoothing[1] > 0) {
    EXPECT_LT(after_team, 1e-2 * start);
  }
  ASSERT_EQ(by_levels.level_count(), one_team.level_count());
  const auto [difference, size] = setup.max_difference(x_team, x_levels);
  EXPECT_GT(size, 0);
  EXPECT_LE(difference, 1e-10 * size);
}

}  // namespace

TEST(TeamLevels, CyclesAgreeWithTheLevelByLevelKernels2D) {
  for (const auto& faces : eddy::testing::face_variety(2)) {
    for (const auto& smoothing : {std::array<int, 2>{1, 1}, {2, 1}, {0, 2}, {1, 0}}) {
      expect_team_cycles_agree(2, {64, 48, 1}, faces, smoothing, eddy::config::CycleType::v);
    }
  }
}

TEST(TeamLevels, CyclesAgreeWithTheLevelByLevelKernels3D) {
  for (const auto& faces : eddy::testing::face_variety(3)) {
    for (const auto& smoothing : {std::array<int, 2>{1, 1}, {2, 2}, {0, 2}}) {
      expect_team_cycles_agree(3, {32, 16, 16}, faces, smoothing, eddy::config::CycleType::v);
    }
  }
}

// An F-cycle visits the team's first level as an F (level by level) and then as a V from the iterate it left.
TEST(TeamLevels, AnFCycleHandsTheTeamItsIterate) {
  const auto faces = eddy::testing::face_variety(2)[0];
  expect_team_cycles_agree(2, {64, 64, 1}, faces, {1, 1}, eddy::config::CycleType::f);
}
