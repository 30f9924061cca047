// The multigrid V-cycle reduces the residual by at least 10x per cycle on 3D problems, independently of the grid
// size (64^3, 128^3; 256^3 with EDDY_LONG_TESTS=1) and of the rank count (this test runs on 1, 2 and 4 ranks), and on
// cell counts with few factors of two, where the levels coarsen as far as the counts allow and a CG bottom solve
// takes the rest.
#include "poisson_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using eddy::Field;
using eddy::Real;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

namespace {

struct Rate {
  Real mean_factor;   // (|r_final| / |r_0|)^(1 / cycles): the reduction per V-cycle over the whole solve
  Real worst_factor;  // the largest reduction ratio of a single cycle
  int cycles;
  std::vector<Real> history;  // the residual before the first cycle and after each
};

// A solve to 1e-10 from zero with a rough (random) right-hand side on `cells` square cells (n^3 where only n is
// given); `row_padding` points past the ghosts of each row of the finest level's fields.
Rate vcycle_rate(eddy::Int3 cells, const eddy::testing::PressureFaces& faces, int row_padding = 0) {
  const int n = cells[0], dim = cells[2] == 1 ? 2 : 3;
  const eddy::Real3 length{1, Real(cells[1]) / n, dim == 3 ? Real(cells[2]) / n : Real(1)};
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces, 1, length);
  setup.problem.shape.row_padding = row_padding;
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  auto solver = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
  // The random value of a cell depends only on its global index, so every rank count sees the same problem.
  Field rhs = setup.field_from([&](Real x, Real y, Real z) {
    const auto index =
        static_cast<unsigned long long>(std::floor(x * n) + n * (std::floor(y * n) + cells[1] * std::floor(z * n)));
    std::mt19937_64 generator(index + 7);
    return std::uniform_real_distribution<Real>(-1, 1)(generator);
  });
  Field phi = eddy::fields::make_field("phi", setup.problem.shape);
  const auto stats = solver->solve(phi, rhs);
  EXPECT_TRUE(stats.converged) << cells[0] << " x " << cells[1] << " x " << cells[2];
  Rate rate{std::pow(stats.final_residual / stats.initial_residual, Real(1) / stats.iterations), 0, stats.iterations,
            stats.history};
  for (std::size_t i = 1; i < stats.history.size(); ++i) {
    rate.worst_factor = std::max(rate.worst_factor, stats.history[i] / stats.history[i - 1]);
  }
  return rate;
}

void expect_fast(const Rate& rate) {
  EXPECT_LE(rate.mean_factor, 0.1);
  // The default cycle, V(1,1) with red-black SOR (omega 1.2), reduces the residual by about 15x per cycle on these
  // problems (0.066 at 64^3 and 128^3); single cycles stay below 0.1.
  EXPECT_LE(rate.worst_factor, 0.1);
}

const eddy::testing::PressureFaces neumann = eddy::testing::uniform_faces(PressureBoundary::neumann, 3);
const eddy::testing::PressureFaces mixed{PressureBoundary::periodic, PressureBoundary::periodic,
                                         PressureBoundary::neumann,  PressureBoundary::neumann,
                                         PressureBoundary::neumann,  PressureBoundary::dirichlet};

}  // namespace

TEST(MultigridRate, VCycleReducesTheResidualTenfoldIndependentlyOfSize) {
  for (const auto& faces : {neumann, mixed}) {
    const auto small = vcycle_rate({64, 64, 64}, faces);
    expect_fast(small);
    const auto large = vcycle_rate({128, 128, 128}, faces);
    expect_fast(large);
    EXPECT_LE(std::abs(large.cycles - small.cycles), 1);
  }
}

// Rows padded past their ghosts (as large blocks are, core/row_padding.hpp) change where values lie, not the solve.
TEST(MultigridRate, PaddedRowsSolveAsUnpaddedOnes) {
  for (const auto& faces : {neumann, mixed}) {
    const auto plain = vcycle_rate({64, 64, 64}, faces), padded = vcycle_rate({64, 64, 64}, faces, 14);
    ASSERT_EQ(padded.cycles, plain.cycles);
    ASSERT_EQ(padded.history.size(), plain.history.size());
    // Sums over longer rows round differently on GPUs: each cycle's residual agrees to round-off of the first.
    for (std::size_t i = 0; i < plain.history.size(); ++i) {
      EXPECT_NEAR(padded.history[i], plain.history[i], 1e-12 * plain.history[0]) << "cycle " << i;
    }
  }
}

TEST(MultigridRate, VCycleReducesTheResidualTenfoldAt256) {
  const char* long_tests = std::getenv("EDDY_LONG_TESTS");
  if (long_tests == nullptr || std::string(long_tests) != "1") GTEST_SKIP() << "set EDDY_LONG_TESTS=1";
  expect_fast(vcycle_rate({256, 256, 256}, neumann));
}

// Counts with odd factors: 1030 x 192 (2 x 515: x stops after one halving, y after two more, at twice the width of x;
// CG solves the 515 x 48 bottom), 3 x 5 x 7 times 16 (a dense bottom of 105 cells) and 30 x 50 x 70 (odd after one
// halving: CG on 15 x 25 x 35).
TEST(MultigridRate, AwkwardCellCountsKeepTheRate) {
  const eddy::testing::PressureFaces walls2d = eddy::testing::uniform_faces(PressureBoundary::neumann, 2);
  // The channel's cells are twice as long as wide on its bottom levels: single cycles reach 0.11 there.
  const auto channel = vcycle_rate({1030, 192, 1}, walls2d);
  EXPECT_LE(channel.mean_factor, 0.1);
  EXPECT_LE(channel.worst_factor, 0.15);
  for (const eddy::Int3 cells : {eddy::Int3{48, 80, 112}, eddy::Int3{30, 50, 70}}) {
    SCOPED_TRACE(std::to_string(cells[0]) + " x " + std::to_string(cells[1]) + " x " + std::to_string(cells[2]));
    expect_fast(vcycle_rate(cells, mixed));
  }
}
