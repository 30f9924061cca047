// The Poisson solvers charge their own halo exchanges and reductions (the coarse gather included) to the
// poisson_halo and poisson_reduction phases, taken off the poisson phase around the solve; on several ranks both are
// non-zero. No other phase is charged, and timing changes nothing in the solve.
#include "poisson_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

using eddy::Field;
using eddy::Phase;
using eddy::PhaseTimers;
using eddy::Real;
using eddy::config::PoissonSolverType;
using eddy::solver::PressureBoundary;
using eddy::testing::poisson_config;
using eddy::testing::PoissonSetup;
using eddy::testing::uniform_faces;

namespace {

Real wavy(Real x, Real y, Real z) { return std::sin(6.0 * x + 0.3) * std::cos(3.0 * y) + 0.2 * z + x * y; }

double seconds(PhaseTimers& timers, Phase p) { return timers.total()[static_cast<int>(p)]; }

void expect_split(PoissonSolverType type, int dim, eddy::Int3 cells) {
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, uniform_faces(PressureBoundary::neumann, dim));
  const auto config = poisson_config(type, 1e-8, 200);
  const Field rhs = setup.field_from(wavy);
  auto untimed = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
  Field reference = eddy::fields::make_field("reference", setup.problem.shape);
  const auto reference_stats = untimed->solve(reference, rhs);

  PhaseTimers timers;
  setup.problem.timers = &timers;
  auto timed = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
  Field phi = eddy::fields::make_field("phi", setup.problem.shape);
  Kokkos::Timer outside;
  eddy::solver::PoissonStats stats;
  {
    auto scope = timers.time(Phase::poisson);
    stats = timed->solve(phi, rhs);
  }
  eddy::ExecSpace().fence("test::solved");  // phases timed on the device may end after the host left the scope
  const double elapsed = outside.seconds();
  SCOPED_TRACE(timed->name() + " " + std::to_string(dim) + "D on " + std::to_string(setup.context->size()) +
               " rank(s)");

  EXPECT_EQ(stats.iterations, reference_stats.iterations);
  EXPECT_EQ(setup.max_difference(phi, reference)[0], 0);

  const double compute = seconds(timers, Phase::poisson), halo = seconds(timers, Phase::poisson_halo),
               reduction = seconds(timers, Phase::poisson_reduction);
  EXPECT_GE(compute, 0);
  EXPECT_GE(halo, 0);
  EXPECT_GE(reduction, 0);
  EXPECT_LE(compute + halo + reduction, elapsed);
  for (int p = 0; p < PhaseTimers::count; ++p) {
    const auto phase = static_cast<Phase>(p);
    if (phase != Phase::poisson && phase != Phase::poisson_halo && phase != Phase::poisson_reduction) {
      EXPECT_EQ(timers.total()[p], 0) << eddy::phase_name(phase);
    }
  }
  if (setup.context->size() > 1) {
    EXPECT_GT(halo, 0);
    EXPECT_GT(reduction, 0);
  }
}

}  // namespace

TEST(PoissonCommunicationTiming, MultigridPreconditionedCg) { expect_split(PoissonSolverType::mg_cg, 2, {32, 32, 1}); }

TEST(PoissonCommunicationTiming, Multigrid) { expect_split(PoissonSolverType::multigrid, 3, {16, 16, 16}); }

TEST(PoissonCommunicationTiming, ConjugateGradients) { expect_split(PoissonSolverType::cg, 2, {24, 20, 1}); }

TEST(PoissonCommunicationTiming, Jacobi) { expect_split(PoissonSolverType::jacobi, 2, {8, 8, 1}); }
