// Every solver converges on every face combination it accepts, on 1, 2 and 4 ranks, and agrees with a one-rank
// solve of the same problem (iteration counts within one, same solution).
#include "poisson_test_support.hpp"
#include "solver/level_sums.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using eddy::Field;
using eddy::Real;
using eddy::config::PoissonSolverType;
using eddy::solver::PressureBoundary;
using eddy::testing::poisson_config;
using eddy::testing::PoissonSetup;
using eddy::testing::uniform_faces;

namespace {

constexpr Real pi = 3.14159265358979323846;

// A smooth right-hand side that is not an eigenfunction of any of the operators below.
Real smooth_rhs(Real x, Real y, Real z) {
  return std::sin(2 * pi * x + 0.3) * std::cos(pi * y) + 0.5 * std::cos(3 * pi * z + 0.1) * x + y * y;
}

std::vector<eddy::testing::PressureFaces> face_combinations(int dim) {
  using PB = PressureBoundary;
  std::vector<eddy::testing::PressureFaces> all = {
      uniform_faces(PB::neumann, dim),
      uniform_faces(PB::dirichlet, dim),
      uniform_faces(PB::periodic, dim),
      {PB::periodic, PB::periodic, PB::neumann, PB::dirichlet, PB::neumann, PB::neumann},
      {PB::neumann, PB::dirichlet, PB::neumann, PB::neumann, PB::periodic, PB::periodic},
      {PB::dirichlet, PB::neumann, PB::periodic, PB::periodic, PB::dirichlet, PB::neumann}};
  if (dim == 2) {
    for (auto& f : all) f[4] = f[5] = PB::periodic;
  }
  return all;
}

struct Case {
  PoissonSolverType type;
  Real rtol;
  int max_iterations;
  int pre_smooth = eddy::config::PoissonConfig{}.pre_smooth;
  int post_smooth = eddy::config::PoissonConfig{}.post_smooth;
};

void expect_converges(int dim, eddy::Int3 cells, const Case& c) {
  for (const auto& faces : face_combinations(dim)) {
    PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
    auto config = poisson_config(c.type, c.rtol, c.max_iterations);
    config.pre_smooth = c.pre_smooth;
    config.post_smooth = c.post_smooth;
    auto solver = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
    Field rhs = setup.field_from(smooth_rhs);
    Field phi = eddy::fields::make_field("phi", setup.problem.shape);
    const auto stats = solver->solve(phi, rhs);
    SCOPED_TRACE(solver->name() + " faces " + std::to_string(static_cast<int>(faces[0])) +
                 std::to_string(static_cast<int>(faces[1])) + std::to_string(static_cast<int>(faces[2])) +
                 std::to_string(static_cast<int>(faces[3])) + std::to_string(static_cast<int>(faces[4])));
    EXPECT_TRUE(stats.converged);
    EXPECT_GT(stats.rhs_norm, 0);
    // The true residual at exit, not only the recursive one, meets the tolerance (with a little roundoff slack).
    EXPECT_LE(stats.final_residual, 10 * c.rtol * stats.rhs_norm);
    EXPECT_EQ(stats.history.front(), stats.initial_residual);
    if (setup.problem.singular()) {
      Field zero = eddy::fields::make_field("zero", setup.problem.shape);
      const Real with_mean = setup.rms_difference(phi, zero, false);
      const Real without_mean = setup.rms_difference(phi, zero, true);
      EXPECT_NEAR(with_mean, without_mean, 1e-10 * with_mean);  // zero-mean solution
    }
  }
}

}  // namespace

TEST(PoissonSolvers, CgConvergesOnEveryFaceCombination) {
  expect_converges(2, {24, 20, 1}, {PoissonSolverType::cg, 1e-10, 500});
  expect_converges(3, {12, 10, 8}, {PoissonSolverType::cg, 1e-10, 500});
}

TEST(PoissonSolvers, JacobiConvergesOnEveryFaceCombination) {
  expect_converges(2, {12, 10, 1}, {PoissonSolverType::jacobi, 1e-6, 20000});
}

TEST(PoissonSolvers, MultigridConvergesOnEveryFaceCombination) {
  expect_converges(2, {32, 24, 1}, {PoissonSolverType::multigrid, 1e-10, 40});
  expect_converges(3, {16, 16, 8}, {PoissonSolverType::multigrid, 1e-10, 40});
  // Without pre-smoothing each convergence check also restricts the residual for the next cycle.
  expect_converges(2, {32, 24, 1}, {PoissonSolverType::multigrid, 1e-10, 60, 0, 2});
  expect_converges(3, {16, 16, 8}, {PoissonSolverType::multigrid, 1e-10, 60, 0, 2});
  // V(2,2) and V(1,2): even and odd sweep counts per cycle.
  expect_converges(3, {16, 16, 8}, {PoissonSolverType::multigrid, 1e-10, 40, 2, 2});
  expect_converges(3, {16, 16, 8}, {PoissonSolverType::multigrid, 1e-10, 40, 1, 2});
}

TEST(PoissonSolvers, MultigridPreconditionedCgConvergesOnEveryFaceCombination) {
  expect_converges(2, {32, 24, 1}, {PoissonSolverType::mg_cg, 1e-10, 40});
  expect_converges(3, {16, 16, 8}, {PoissonSolverType::mg_cg, 1e-10, 40});
}

TEST(PoissonSolvers, EverySmootherAndCycleConverges) {
  for (auto smoother : {eddy::config::SmootherType::red_black_gauss_seidel, eddy::config::SmootherType::jacobi,
                        eddy::config::SmootherType::chebyshev}) {
    for (auto cycle : {eddy::config::CycleType::v, eddy::config::CycleType::w, eddy::config::CycleType::f}) {
      PoissonSetup setup(MPI_COMM_WORLD, 3, {16, 16, 16}, uniform_faces(PressureBoundary::neumann, 3));
      auto config = poisson_config(PoissonSolverType::multigrid, 1e-10, 60);
      config.smoother = smoother;
      config.cycle = cycle;
      config.pre_smooth = config.post_smooth = 2;  // a polynomial smoother of degree 1 is weak
      auto solver = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
      Field phi = eddy::fields::make_field("phi", setup.problem.shape);
      const auto stats = solver->solve(phi, setup.field_from(smooth_rhs));
      EXPECT_TRUE(stats.converged) << static_cast<int>(smoother) << " " << static_cast<int>(cycle);
      EXPECT_LE(stats.iterations, smoother == eddy::config::SmootherType::jacobi ? 30 : 15)
          << static_cast<int>(smoother);
    }
  }
}

TEST(PoissonSolvers, WarmStartFromTheSolutionNeedsNoIteration) {
  // Dirichlet, and periodic (singular: with no iteration the solver still returns the zero-mean solution).
  for (auto face : {PressureBoundary::dirichlet, PressureBoundary::periodic}) {
    PoissonSetup setup(MPI_COMM_WORLD, 3, {16, 12, 8}, uniform_faces(face, 3));
    Field rhs = setup.field_from(smooth_rhs);
    Field zero = eddy::fields::make_field("zero", setup.problem.shape);
    for (auto type : {PoissonSolverType::cg, PoissonSolverType::multigrid, PoissonSolverType::mg_cg}) {
      Field phi = eddy::fields::make_field("phi", setup.problem.shape);
      auto solver = eddy::solver::make_poisson_solver(poisson_config(type, 1e-8, 100), setup.problem, *setup.context,
                                                      *setup.reducer);
      const auto first = solver->solve(phi, rhs);
      EXPECT_GT(first.iterations, 0);
      if (setup.problem.singular()) eddy::solver::subtract_constant(phi, -1.0);  // a solution, not the zero-mean one
      const auto again = solver->solve(phi, rhs);
      EXPECT_EQ(again.iterations, 0) << solver->name();
      EXPECT_TRUE(again.converged);
      if (setup.problem.singular()) {
        const Real with_mean = setup.rms_difference(phi, zero, false);
        EXPECT_NEAR(with_mean, setup.rms_difference(phi, zero, true), 1e-10 * with_mean) << solver->name();
      }
    }
  }
}

// The convergence check runs every check_every iterations and after the last one: a solve that converges stops at a
// multiple of check_every, with the same solution as checking every iteration and then running on to that multiple;
// one that cannot converge stops at max_iterations with a check there too.
TEST(PoissonSolvers, TheStationarySolversCheckEveryCheckEveryIterationsAndAtTheLast) {
  PoissonSetup setup(MPI_COMM_WORLD, 2, {32, 32, 1}, uniform_faces(PressureBoundary::neumann, 2));
  Field rhs = setup.field_from(smooth_rhs);
  for (auto type : {PoissonSolverType::multigrid, PoissonSolverType::jacobi}) {
    SCOPED_TRACE(static_cast<int>(type));
    const int max_iterations = type == PoissonSolverType::jacobi ? 10 : 50;
    auto every_one = poisson_config(type, 1e-3, max_iterations);
    auto every_three = every_one;
    every_three.check_every = 3;
    Field phi1 = eddy::fields::make_field("phi1", setup.problem.shape);
    Field phi3 = eddy::fields::make_field("phi3", setup.problem.shape);
    auto solver1 = eddy::solver::make_poisson_solver(every_one, setup.problem, *setup.context, *setup.reducer);
    auto solver3 = eddy::solver::make_poisson_solver(every_three, setup.problem, *setup.context, *setup.reducer);
    const auto checked1 = solver1->solve(phi1, rhs);
    const auto checked3 = solver3->solve(phi3, rhs);
    if (type == PoissonSolverType::jacobi) {
      // Ten Jacobi sweeps do not reach 1e-3: checks after 3, 6, 9 and the tenth.
      EXPECT_FALSE(checked3.converged);
      EXPECT_EQ(checked3.iterations, 10);
      EXPECT_EQ(checked3.history.size(), 5u);
      EXPECT_EQ(checked1.history.size(), 11u);
      EXPECT_DOUBLE_EQ(checked3.final_residual, checked1.final_residual);
      continue;
    }
    ASSERT_TRUE(checked1.converged);
    ASSERT_TRUE(checked3.converged);
    const int multiple = 3 * ((checked1.iterations + 2) / 3);
    EXPECT_EQ(checked3.iterations, multiple);
    EXPECT_EQ(checked3.history.size(), static_cast<std::size_t>(multiple / 3 + 1));
    // Check every cycle again, but only stop at the multiple of three: the same iterate.
    auto exact = poisson_config(type, 0, multiple);
    Field phi = eddy::fields::make_field("phi", setup.problem.shape);
    auto solver = eddy::solver::make_poisson_solver(exact, setup.problem, *setup.context, *setup.reducer);
    const auto fixed = solver->solve(phi, rhs);
    EXPECT_EQ(fixed.iterations, multiple);
    EXPECT_DOUBLE_EQ(fixed.final_residual, checked3.final_residual);
  }
}

// A projection's right-hand side sums to zero and only the gradient of its solution is used: a solve told so skips
// removing the right-hand side's mean and pinning the solution's, and differs from the full solve by a constant only.
TEST(PoissonSolvers, AMeanFreeRightHandSideAndAFreeMeanChangeTheSolutionByTheMeasuredConstant) {
  const auto mean_free_rhs = [](Real x, Real y, Real z) {
    return std::sin(2 * pi * x + 0.3) * std::cos(2 * pi * y) + 0.5 * std::cos(4 * pi * z + 0.1);
  };
  PoissonSetup setup(MPI_COMM_WORLD, 3, {16, 12, 8}, uniform_faces(PressureBoundary::periodic, 3));
  Field rhs = setup.field_from(mean_free_rhs);
  Field zero = eddy::fields::make_field("zero", setup.problem.shape);
  const auto mean_of = [&](Field f) {
    const Real with_mean = setup.rms_difference(f, zero, false), without_mean = setup.rms_difference(f, zero, true);
    return std::sqrt(std::max(Real(0), with_mean * with_mean - without_mean * without_mean));
  };
  // A start whose mean is several times the solution's size, small enough that the rms differences below, which
  // remove the mean, do not lose the solution's digits to it.
  const Real start_mean = 0.05;
  for (auto type :
       {PoissonSolverType::cg, PoissonSolverType::multigrid, PoissonSolverType::mg_cg, PoissonSolverType::jacobi}) {
    const Real rtol = type == PoissonSolverType::jacobi ? 1e-8 : 1e-10;
    auto solver = eddy::solver::make_poisson_solver(poisson_config(type, rtol, 20000), setup.problem, *setup.context,
                                                    *setup.reducer);
    SCOPED_TRACE(solver->name());
    Field full = eddy::fields::make_field("full", setup.problem.shape);
    eddy::solver::subtract_constant(full, -start_mean);
    const auto full_stats = solver->solve(full, rhs);
    Field free_mean = eddy::fields::make_field("free_mean", setup.problem.shape);
    eddy::solver::subtract_constant(free_mean, -start_mean);
    eddy::solver::SolveRequest request;
    request.rhs_mean_free = true;
    request.pin_mean = false;
    request.measure_mean = true;
    const auto free_stats = solver->solve(free_mean, rhs, request);
    EXPECT_TRUE(full_stats.converged);
    EXPECT_TRUE(free_stats.converged);
    EXPECT_NEAR(free_stats.rhs_norm, full_stats.rhs_norm, 1e-12 * full_stats.rhs_norm);
    EXPECT_LE(std::abs(free_stats.iterations - full_stats.iterations), 1);
    const Real size = setup.rms_difference(full, zero, true);
    EXPECT_LT(mean_of(full), 1e-10 * size);                               // pinned to zero
    EXPECT_GT(mean_of(free_mean), 0.5 * start_mean);                      // left near the start's mean
    EXPECT_LT(setup.rms_difference(free_mean, full, true), 1e-5 * size);  // the same up to a constant
    // The measured mean is that constant, signed: the start's mean, positive, is most of it.
    EXPECT_GT(free_stats.solution_mean, 0.5 * start_mean);
    EXPECT_NEAR(free_stats.solution_mean, setup.rms_difference(free_mean, full, false), 1e-5 * size);
  }
}

// A solve told that its start's ghosts are valid reads them as they are: from a start whose ghosts fill_ghosts() set,
// it solves as a solve that fills them itself, bit for bit; from one with stale ghosts it measures another residual.
TEST(PoissonSolvers, ASolveToldItsGhostsAreValidReadsThemAsTheyAre) {
  using PB = PressureBoundary;
  const auto start = [](Real x, Real y, Real z) { return std::cos(2 * pi * x) * std::sin(2 * pi * y + 0.2) + z; };
  for (const auto& faces :
       {uniform_faces(PB::periodic, 3), eddy::testing::PressureFaces{PB::periodic, PB::periodic, PB::neumann,
                                                                     PB::dirichlet, PB::neumann, PB::neumann}}) {
    PoissonSetup setup(MPI_COMM_WORLD, 3, {16, 12, 8}, faces);
    Field rhs = setup.field_from(smooth_rhs);
    for (auto type : {PoissonSolverType::multigrid, PoissonSolverType::cg}) {
      auto solver = eddy::solver::make_poisson_solver(poisson_config(type, 1e-6, 50), setup.problem, *setup.context,
                                                      *setup.reducer);
      SCOPED_TRACE(solver->name());
      Field filled = setup.field_from(start), stale = setup.field_from(start), read = setup.field_from(start);
      solver->fill_ghosts(filled);
      eddy::solver::SolveRequest as_they_are;
      as_they_are.ghosts_valid = true;
      const auto filled_stats = solver->solve(filled, rhs, as_they_are);
      const auto stale_stats = solver->solve(stale, rhs);
      const auto read_stats = solver->solve(read, rhs, as_they_are);
      EXPECT_EQ(filled_stats.initial_residual, stale_stats.initial_residual);
      EXPECT_EQ(filled_stats.iterations, stale_stats.iterations);
      EXPECT_EQ(setup.max_difference(filled, stale)[0], 0);
      EXPECT_GT(std::abs(read_stats.initial_residual - stale_stats.initial_residual),
                1e-3 * stale_stats.initial_residual);
    }
  }
}

// The same problem solved on all ranks and on rank 0 alone: iteration counts within one, same solution.
TEST(PoissonSolvers, IterationCountsAndSolutionDoNotDependOnTheRankCount) {
  using PB = PressureBoundary;
  const eddy::testing::PressureFaces faces{PB::neumann,  PB::dirichlet, PB::periodic,
                                           PB::periodic, PB::neumann,   PB::neumann};
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (auto type : {PoissonSolverType::multigrid, PoissonSolverType::mg_cg, PoissonSolverType::cg}) {
    const auto config = poisson_config(type, 1e-9, 300);
    PoissonSetup all(MPI_COMM_WORLD, 3, {32, 32, 32}, faces);
    auto solver = eddy::solver::make_poisson_solver(config, all.problem, *all.context, *all.reducer);
    Field phi = eddy::fields::make_field("phi", all.problem.shape);
    const auto stats = solver->solve(phi, all.field_from(smooth_rhs));
    ASSERT_TRUE(stats.converged);

    // Rank 0 solves alone and broadcasts its count; each rank compares its block of the solution with rank 0's.
    int reference_iterations = 0;
    std::vector<Real> reference;
    if (rank == 0) {
      PoissonSetup one(MPI_COMM_SELF, 3, {32, 32, 32}, faces);
      auto serial = eddy::solver::make_poisson_solver(config, one.problem, *one.context, *one.reducer);
      Field phi1 = eddy::fields::make_field("phi1", one.problem.shape);
      const auto stats1 = serial->solve(phi1, one.field_from(smooth_rhs));
      EXPECT_TRUE(stats1.converged);
      reference_iterations = stats1.iterations;
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), phi1);
      for (int k = 1; k <= 32; ++k)
        for (int j = 1; j <= 32; ++j)
          for (int i = 1; i <= 32; ++i) reference.push_back(host(i, j, k));
    }
    reference.resize(32 * 32 * 32);
    MPI_Bcast(&reference_iterations, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(reference.data(), static_cast<int>(reference.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    EXPECT_LE(std::abs(stats.iterations - reference_iterations), 1) << solver->name();

    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), phi);
    const auto& d = all.problem.decomp;
    Real worst = 0, scale = 0;
    for (int k = 0; k < d.local_cells[2]; ++k)
      for (int j = 0; j < d.local_cells[1]; ++j)
        for (int i = 0; i < d.local_cells[0]; ++i) {
          const Real ref = reference[(d.offset[0] + i) + 32 * ((d.offset[1] + j) + 32 * (d.offset[2] + k))];
          worst = std::max(worst, std::abs(host(i + 1, j + 1, k + 1) - ref));
          scale = std::max(scale, std::abs(ref));
        }
    EXPECT_LE(worst, 1e-6 * scale) << solver->name();
  }
}
