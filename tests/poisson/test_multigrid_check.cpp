// The multigrid solver's convergence check restricts the residual it measures (Multigrid::restrict_top), and a cycle
// without pre-smoothing starts from that restriction. Cycles started from it equal full cycles, and its sums equal
// those of the residual alone: for every face condition, in 2D and 3D, launched kernel by kernel or replayed as a CUDA
// graph (GPUs), on 1, 2 and 4 ranks; with pre-smoothing the check restricts all the same but no cycle starts from
// it.
#include "core/error.hpp"
#include "poisson_test_support.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"
#include "solver/multigrid.hpp"

#include <gtest/gtest.h>

#include <cmath>

using eddy::Field;
using eddy::Real;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

namespace {

Real rough(Real x, Real y, Real z) { return std::sin(37 * x + 3 * y) + std::cos(23 * y - 11 * z) + x * z; }
Real source(Real x, Real y, Real z) { return 40 * std::cos(5 * x - 2 * z) * std::sin(7 * y); }

std::vector<eddy::testing::PressureFaces> face_sets(int dim) {
  using PB = PressureBoundary;
  std::vector<eddy::testing::PressureFaces> all = {
      eddy::testing::uniform_faces(PB::neumann, dim),
      eddy::testing::uniform_faces(PB::periodic, dim),
      {PB::periodic, PB::periodic, PB::neumann, PB::dirichlet, PB::dirichlet, PB::neumann}};
  if (dim == 2) {
    for (auto& f : all) f[4] = f[5] = PB::periodic;
  }
  return all;
}

void expect_check_starts_cycles(int dim, eddy::Int3 cells, const eddy::testing::PressureFaces& faces,
                                eddy::solver::CycleLaunch launch) {
  SCOPED_TRACE("dim " + std::to_string(dim) + " launch " + std::to_string(static_cast<int>(launch)) + " faces " +
               std::to_string(static_cast<int>(faces[0])) + std::to_string(static_cast<int>(faces[2])) +
               std::to_string(static_cast<int>(faces[3])) + std::to_string(static_cast<int>(faces[4])));
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  config.pre_smooth = 0;
  config.post_smooth = 2;
  const auto make = [&] {
    return eddy::solver::Multigrid(level, *setup.context, *setup.reducer, config, setup.halo_transport(),
                                   eddy::solver::SweepForm::automatic, launch);
  };
  eddy::solver::Multigrid full = make(), started = make();
  ASSERT_TRUE(started.restricts_first());
  Field rhs = setup.field_from(source);
  Field x_full = setup.field_from(rough), x_started = setup.field_from(rough);
  full.top_ghosts().fill(x_full);
  started.top_ghosts().fill(x_started);
  eddy::Buffer sums_full("sums_full", 3), sums_started("sums_started", 3);
  Real first_residual2 = 0, last_residual2 = 0;
  for (int cycle = 0; cycle < 5; ++cycle) {
    eddy::solver::residual_sums(x_full, rhs, level, sums_full, *setup.reducer);
    started.restrict_top(x_started, rhs, sums_started, *setup.reducer);
    const auto expected = eddy::solver::read_sums<3>(sums_full);
    const auto measured = eddy::solver::read_sums<3>(sums_started);
    EXPECT_NEAR(measured[0], expected[0], 1e-12 * expected[0]) << "cycle " << cycle;
    EXPECT_NEAR(measured[1], expected[1], 1e-12 * expected[1]) << "cycle " << cycle;
    const Real x_sum = eddy::solver::global_sum(x_full, level, *setup.reducer);
    EXPECT_NEAR(measured[2], x_sum, 1e-12 * std::sqrt(expected[1]) * level.global_cells()) << "cycle " << cycle;
    if (cycle == 0) first_residual2 = expected[0];
    last_residual2 = expected[0];
    full.cycle(x_full, rhs);
    started.cycle(x_started, rhs, true);
  }
  EXPECT_LT(last_residual2, 1e-4 * first_residual2);  // the cycles converge
  const auto [difference, size] = setup.max_difference(x_started, x_full);
  EXPECT_GT(size, 0);
  EXPECT_LE(difference, 1e-12 * size);
}

}  // namespace

TEST(MultigridCheck, CyclesStartedFromTheCheckEqualFullCyclesAndItsSumsThoseOfTheResidual) {
  for (auto launch : {eddy::solver::CycleLaunch::automatic, eddy::solver::CycleLaunch::kernel_by_kernel}) {
    for (const auto& faces : face_sets(3)) expect_check_starts_cycles(3, {32, 24, 20}, faces, launch);
    for (const auto& faces : face_sets(2)) expect_check_starts_cycles(2, {48, 40, 1}, faces, launch);
  }
}

TEST(MultigridCheck, WithPreSmoothingTheCheckStillRestrictsButNoCycleStartsFromIt) {
  PoissonSetup setup(MPI_COMM_WORLD, 3, {16, 16, 16}, eddy::testing::uniform_faces(PressureBoundary::neumann, 3));
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  config.pre_smooth = 1;
  eddy::solver::Multigrid multigrid(level, *setup.context, *setup.reducer, config, setup.halo_transport());
  EXPECT_FALSE(multigrid.restricts_first());
  Field x = setup.field_from(rough), rhs = setup.field_from(source);
  multigrid.top_ghosts().fill(x);
  eddy::Buffer sums("sums", 3), expected("expected", 3);
  multigrid.restrict_top(x, rhs, sums, *setup.reducer);
  eddy::solver::residual_sums(x, rhs, level, expected, *setup.reducer);
  const auto measured = eddy::solver::read_sums<3>(sums), reference = eddy::solver::read_sums<3>(expected);
  EXPECT_NEAR(measured[0], reference[0], 1e-12 * reference[0]);
  EXPECT_GT(reference[0], 0);
  EXPECT_THROW(multigrid.cycle(x, rhs, true), eddy::Error);
}
