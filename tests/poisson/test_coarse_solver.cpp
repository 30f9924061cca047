// The dense coarsest-level solve of the multigrid hierarchy: exact (residual at roundoff) on every face combination,
// in 2D and 3D, on 1, 2 and 4 ranks, with the zero-mean solution when the operator is singular.
#include "poisson_test_support.hpp"
#include "solver/coarse_solver.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"

#include <gtest/gtest.h>

#include <cmath>

using eddy::Field;
using eddy::Real;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

namespace {

Real rough_rhs(Real x, Real y, Real z) { return std::sin(7 * x + 1) + std::cos(5 * y) * (1 + z) + x * y * z; }

void expect_exact(int dim, eddy::Int3 cells, const eddy::testing::PressureFaces& faces) {
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  eddy::solver::DenseCoarseSolver coarse(level, *setup.reducer);
  eddy::solver::GhostFiller ghosts(*setup.context, level, setup.halo_transport());
  Field b = setup.field_from(rough_rhs);
  Field x = eddy::fields::make_field("x", p.shape), r = eddy::fields::make_field("r", p.shape);
  coarse.solve(x, b);
  ghosts.fill(x);
  const Real shift = level.singular() ? eddy::solver::global_sum(b, level, *setup.reducer) / level.global_cells() : 0;
  eddy::Buffer sums("sums", 2);
  eddy::solver::residual_with_norms(r, x, b, shift, level, sums, *setup.reducer);
  const auto norms = eddy::solver::read_sums<2>(sums);
  SCOPED_TRACE("dim " + std::to_string(dim) + " faces " + std::to_string(static_cast<int>(faces[0])) +
               std::to_string(static_cast<int>(faces[1])) + std::to_string(static_cast<int>(faces[2])) +
               std::to_string(static_cast<int>(faces[3])) + std::to_string(static_cast<int>(faces[4])));
  EXPECT_GT(norms[1], 0);
  EXPECT_LE(std::sqrt(norms[0]), 1e-11 * std::sqrt(norms[1]));
  if (level.singular()) {
    const Real mean = eddy::solver::global_sum(x, level, *setup.reducer) / level.global_cells();
    Field zero = eddy::fields::make_field("zero", p.shape);
    EXPECT_LE(std::abs(mean), 1e-12 * setup.rms_difference(x, zero, false));
  }
}

}  // namespace

TEST(DenseCoarseSolver, SolvesEveryFaceCombinationExactly) {
  using PB = PressureBoundary;
  const std::vector<eddy::testing::PressureFaces> combinations = {
      {PB::neumann, PB::neumann, PB::neumann, PB::neumann, PB::neumann, PB::neumann},
      {PB::dirichlet, PB::dirichlet, PB::dirichlet, PB::dirichlet, PB::dirichlet, PB::dirichlet},
      {PB::periodic, PB::periodic, PB::periodic, PB::periodic, PB::periodic, PB::periodic},
      {PB::periodic, PB::periodic, PB::neumann, PB::dirichlet, PB::neumann, PB::neumann},
      {PB::dirichlet, PB::neumann, PB::periodic, PB::periodic, PB::dirichlet, PB::neumann}};
  for (auto faces : combinations) {
    expect_exact(3, {4, 6, 6}, faces);
    faces[4] = faces[5] = PB::periodic;
    expect_exact(2, {8, 6, 1}, faces);
  }
}
