// Multigrid with its small coarse levels gathered onto every rank: on 2 and 4 ranks, V, W and F cycles give the
// iterates of the same cycles on one rank (every face condition, 2D and 3D), which fails if the gather, the whole
// level's cycle or the copy back of the owned cells and ghosts is wrong; with `gather_coarse_levels: false` every
// level stays split and the solve converges as fast.
#include "poisson_test_support.hpp"
#include "solver/multigrid.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using eddy::Field;
using eddy::Real;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

namespace {

Real source(Real x, Real y, Real z) { return 40 * std::cos(5 * x - 2 * z) * std::sin(7 * y) + x * y - 0.25 * z; }
Real start(Real x, Real y, Real z) { return std::sin(9 * x + 2 * y) * std::cos(4 * z) + 0.1 * x; }

int ranks() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Largest |split - whole| over this rank's owned cells, `whole` holding the level on one rank, and the largest
// |whole| there; both over all ranks.
std::array<Real, 2> block_difference(const PoissonSetup& split, Field split_field, Field whole_field) {
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), split_field);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole_field);
  const auto& d = split.problem.decomp;
  const int g = split.problem.shape.ghost;
  Real difference = 0, size = 0;
  for (int k = g; k < g + d.local_cells[2]; ++k) {
    for (int j = g; j < g + d.local_cells[1]; ++j) {
      for (int i = g; i < g + d.local_cells[0]; ++i) {
        const Real w = b(i + d.offset[0], j + d.offset[1], k + d.offset[2]);
        difference = std::max(difference, std::abs(a(i, j, k) - w));
        size = std::max(size, std::abs(w));
      }
    }
  }
  return {split.reducer->max(difference), split.reducer->max(size)};
}

void expect_cycles_equal_one_rank(int dim, eddy::Int3 cells, const eddy::testing::PressureFaces& faces,
                                  eddy::config::CycleType type) {
  SCOPED_TRACE("dim " + std::to_string(dim) + " cycle " + std::to_string(static_cast<int>(type)) + " faces " +
               std::to_string(static_cast<int>(faces[0])) + std::to_string(static_cast<int>(faces[2])) +
               std::to_string(static_cast<int>(faces[4])));
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  config.cycle = type;
  PoissonSetup split(MPI_COMM_WORLD, dim, cells, faces), whole(MPI_COMM_SELF, dim, cells, faces);
  Field iterate[2];
  int levels[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    const auto& setup = s == 0 ? split : whole;
    const auto& p = setup.problem;
    const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
    eddy::solver::Multigrid multigrid(level, *setup.context, *setup.reducer, config, setup.halo_transport());
    levels[s] = multigrid.level_count() + std::max(multigrid.gathered_level_count() - 1, 0);
    if (s == 0) {
      EXPECT_EQ(multigrid.gathered_level_count() > 0, ranks() > 1);
      EXPECT_EQ(multigrid.describe().find("cycled whole on every rank") != std::string::npos, ranks() > 1)
          << multigrid.describe();
    }
    iterate[s] = setup.field_from(start);
    Field rhs = setup.field_from(source);
    multigrid.top_ghosts().fill(iterate[s]);
    for (int c = 0; c < 3; ++c) multigrid.cycle(iterate[s], rhs);
  }
  EXPECT_EQ(levels[0], levels[1]);  // the same hierarchy, split above the gathered level
  const auto [difference, size] = block_difference(split, iterate[0], iterate[1]);
  EXPECT_GT(size, 0);
  EXPECT_LE(difference, 1e-11 * size);
}

}  // namespace

TEST(GatheredLevels, CyclesEqualOneRankCycles3D) {
  using eddy::config::CycleType;
  for (const auto& faces : eddy::testing::face_variety(3)) {
    for (auto type : {CycleType::v, CycleType::w, CycleType::f})
      expect_cycles_equal_one_rank(3, {32, 32, 32}, faces, type);
  }
}

TEST(GatheredLevels, CyclesEqualOneRankCycles2D) {
  using eddy::config::CycleType;
  for (const auto& faces : eddy::testing::face_variety(2)) {
    for (auto type : {CycleType::v, CycleType::w}) expect_cycles_equal_one_rank(2, {128, 64, 1}, faces, type);
  }
}

TEST(GatheredLevels, SplitLevelsConvergeAsFast) {
  const auto faces = eddy::testing::uniform_faces(PressureBoundary::neumann, 3);
  PoissonSetup setup(MPI_COMM_WORLD, 3, {32, 32, 32}, faces);
  Field rhs = setup.field_from(source);
  int cycles[2] = {0, 0};
  for (int gather = 0; gather < 2; ++gather) {
    auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
    config.gather_coarse_levels = gather == 1;
    const auto& p = setup.problem;
    const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
    eddy::solver::Multigrid multigrid(level, *setup.context, *setup.reducer, config, setup.halo_transport());
    EXPECT_EQ(multigrid.gathered_level_count() > 0, gather == 1 && ranks() > 1);
    auto solver = eddy::solver::make_poisson_solver(config, setup.problem, *setup.context, *setup.reducer);
    Field phi = eddy::fields::make_field("phi", p.shape);
    const auto stats = solver->solve(phi, rhs);
    EXPECT_TRUE(stats.converged);
    cycles[gather] = stats.iterations;
  }
  EXPECT_LE(std::abs(cycles[0] - cycles[1]), 1);
}
