// The discrete Laplacian and the residual in both forms, the pressure ghost conditions, the deck-to-pressure boundary
// mapping, the multigrid coarsening rule, and the restriction and the prolongation in both forms.
#include "core/error.hpp"
#include "grid/pair_columns.hpp"
#include "poisson_test_support.hpp"
#include "solver/laplacian.hpp"
#include "solver/poisson_level.hpp"
#include "solver/prolongation.hpp"
#include "solver/restriction.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Random.hpp>
#include <array>
#include <cmath>
#include <string>
#include <utility>

using eddy::Field;
using eddy::Real;
using eddy::config::BoundaryType;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

TEST(PoissonOperator, LaplacianIsExactOnQuadratics) {
  for (int dim : {2, 3}) {
    PoissonSetup setup(MPI_COMM_WORLD, dim, {12, 10, dim == 2 ? 1 : 8},
                       eddy::testing::uniform_faces(PressureBoundary::neumann, dim), 2, {1.5, 1.0, 0.75});
    const Real cz = dim == 2 ? 0 : -0.7;
    auto quadratic = [&](Real x, Real y, Real z) {
      return 1.3 * x * x + 0.4 * y * y + cz * z * z + 0.9 * x * y - 2.1 * y * z + 0.3 * x - 1;
    };
    Field phi = setup.field_from(quadratic, true);  // ghosts hold the polynomial too
    // The residual with a zero right-hand side is -L(phi).
    const auto& p = setup.problem;
    const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
    Field zero = eddy::fields::make_field("zero", p.shape), minus_lap = eddy::fields::make_field("minus_lap", p.shape);
    eddy::solver::residual(minus_lap, phi, zero, level);
    Field expected = setup.field_from([&](Real, Real, Real) { return -2 * (1.3 + 0.4 + cz); });
    EXPECT_LT(setup.rms_difference(minus_lap, expected, false), 1e-10) << dim;
  }
}

namespace {

/// Points of `out` that differ from the stencil evaluated cell by cell on the host (rhs - L(phi) where `rhs` is
/// allocated, L(phi) otherwise) on owned cells by more than 1e-10, or from `untouched` on ghosts.
int pair_loop_mismatches(Field out, Field phi, Field rhs, const eddy::fields::LocalShape& shape,
                         const eddy::solver::StencilWeights& w, Real untouched) {
  const auto o = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), phi);
  const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  const int g = shape.ghost;
  int mismatches = 0;
  for (int k = 0; k < shape.extent(2); ++k)
    for (int j = 0; j < shape.extent(1); ++j)
      for (int i = 0; i < shape.extent(0); ++i) {
        const bool owned =
            i >= g && i < g + shape.cells[0] && j >= g && j < g + shape.cells[1] && k >= g && k < g + shape.cells[2];
        Real expected = untouched;
        if (owned) {
          const Real lap = eddy::solver::laplacian_at(p, i, j, k, w);
          expected = rhs.data() != nullptr ? b(i, j, k) - lap : lap;
        }
        if (!(std::abs(o(i, j, k) - expected) <= 1e-10)) ++mismatches;
      }
  return mismatches;
}

}  // namespace

// The residual (by pairs on GPUs where the block allows, by cells elsewhere) and its pair form, with and without a
// right-hand side, against the stencil cell by cell: owned cells equal to round-off, every ghost left as it was. 2D
// blocks and odd row counts take the cell form; the pair form refuses them.
TEST(PoissonOperator, ResidualFormsMatchTheStencilCellByCell) {
  for (int dim : {2, 3}) {
    for (const auto& [ghost, rows] : {std::pair{1, 20}, std::pair{2, 20}, std::pair{1, 21}}) {
      // More than one tile of pairs along x and of rows along y, and more than one column chunk along z (the last
      // one short) on a single rank.
      PoissonSetup setup(MPI_COMM_WORLD, dim, {72, rows, dim == 2 ? 1 : 36},
                         eddy::testing::uniform_faces(PressureBoundary::neumann, dim), ghost, {1.5, 1.0, 0.75});
      const auto& p = setup.problem;
      const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
      const auto& shape = p.shape;
      Field phi = eddy::fields::make_field("phi", shape), rhs = eddy::fields::make_field("rhs", shape),
            out = eddy::fields::make_field("out", shape);
      Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(11 + setup.context->rank());
      Kokkos::fill_random(phi, pool, Real(-1), Real(1));
      Kokkos::fill_random(rhs, pool, Real(-1), Real(1));
      ASSERT_TRUE(eddy::grid::fits_cell_pairs(shape, {out, phi, rhs}));
      const auto w = level.weights();
      const std::string where =
          "dim " + std::to_string(dim) + ", ghost " + std::to_string(ghost) + ", rows " + std::to_string(rows);
      Kokkos::deep_copy(out, Real(-7));
      eddy::solver::residual(out, phi, rhs, level);
      EXPECT_EQ(pair_loop_mismatches(out, phi, rhs, shape, w, -7), 0) << where << ", residual()";
      const bool pairs_fit = eddy::solver::fits_laplacian_pairs(shape, w, {out, phi, rhs});
      EXPECT_EQ(pairs_fit, dim == 3 && shape.cells[1] % 2 == 0) << where;
      for (const bool with_rhs : {false, true}) {
        Kokkos::deep_copy(out, Real(-7));
        if (!pairs_fit) {
          EXPECT_THROW(eddy::solver::laplacian_by_pairs(out, phi, with_rhs ? rhs : Field(), shape, w), eddy::Error)
              << where;
          continue;
        }
        eddy::solver::laplacian_by_pairs(out, phi, with_rhs ? rhs : Field(), shape, w);
        EXPECT_EQ(pair_loop_mismatches(out, phi, with_rhs ? rhs : Field(), shape, w, -7), 0)
            << where << ", by pairs, right-hand side " << with_rhs;
      }
    }
  }
}

TEST(PoissonOperator, PairLoopRefusesRowsOfOddLengthAndFieldsOfAnotherShape) {
  PoissonSetup setup(MPI_COMM_SELF, 3, {15, 4, 4}, eddy::testing::uniform_faces(PressureBoundary::neumann, 3));
  const auto& shape = setup.problem.shape;
  Field phi = eddy::fields::make_field("phi", shape), out = eddy::fields::make_field("out", shape);
  EXPECT_FALSE(eddy::grid::fits_cell_pairs(shape, {out, phi}));
  EXPECT_FALSE(eddy::grid::use_cell_pairs(shape, {out, phi}));
  // Rows of even length, but a field of another shape.
  PoissonSetup even(MPI_COMM_SELF, 3, {16, 4, 4}, eddy::testing::uniform_faces(PressureBoundary::neumann, 3));
  EXPECT_TRUE(eddy::grid::fits_cell_pairs(even.problem.shape, {}));
  EXPECT_FALSE(eddy::grid::fits_cell_pairs(even.problem.shape, {phi}));
  EXPECT_THROW(eddy::solver::laplacian_by_pairs(out, phi, Field(), shape, eddy::solver::stencil_weights({1, 1, 1}, 3)),
               eddy::Error);
}

TEST(PoissonOperator, PhysicalGhostsMirrorOrNegateTheBoundaryCell) {
  using PB = PressureBoundary;
  const eddy::testing::PressureFaces faces{PB::neumann,  PB::dirichlet, PB::periodic,
                                           PB::periodic, PB::dirichlet, PB::neumann};
  PoissonSetup setup(MPI_COMM_WORLD, 3, {6, 5, 4}, faces);
  Field phi = setup.field_from([](Real x, Real y, Real z) { return 1 + x + 10 * y + 100 * z; });
  eddy::solver::apply_pressure_ghosts(phi, setup.problem.shape, setup.problem.decomp, faces);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), phi);
  const auto& d = setup.problem.decomp;
  const auto& n = setup.problem.shape.cells;
  for (int k = 1; k <= n[2]; ++k)
    for (int j = 1; j <= n[1]; ++j) {
      if (d.on_boundary(0, 0)) {
        EXPECT_EQ(h(0, j, k), h(1, j, k));
      }
      if (d.on_boundary(0, 1)) {
        EXPECT_EQ(h(n[0] + 1, j, k), -h(n[0], j, k));
      }
    }
  for (int j = 1; j <= n[1]; ++j)
    for (int i = 1; i <= n[0]; ++i) {
      if (d.on_boundary(2, 0)) {
        EXPECT_EQ(h(i, j, 0), -h(i, j, 1));
      }
      if (d.on_boundary(2, 1)) {
        EXPECT_EQ(h(i, j, n[2] + 1), h(i, j, n[2]));
      }
    }
  // Periodic faces are the halo exchange's: left untouched (still zero) here.
  for (int k = 1; k <= n[2]; ++k)
    for (int i = 1; i <= n[0]; ++i) EXPECT_EQ(h(i, 0, k), 0);
}

TEST(PoissonOperator, DeckBoundariesMapToPressureConditions) {
  eddy::config::BoundaryConfig b;
  const BoundaryType types[6] = {BoundaryType::inflow,    BoundaryType::outflow,     BoundaryType::no_slip,
                                 BoundaryType::free_slip, BoundaryType::moving_wall, BoundaryType::periodic};
  for (int f = 0; f < 6; ++f) b.faces[f].type = types[f];
  const auto p3 = eddy::solver::pressure_boundaries(b, 3);
  const eddy::testing::PressureFaces expected{PressureBoundary::neumann, PressureBoundary::dirichlet,
                                              PressureBoundary::neumann, PressureBoundary::neumann,
                                              PressureBoundary::neumann, PressureBoundary::periodic};
  EXPECT_EQ(p3, expected);
  const auto p2 = eddy::solver::pressure_boundaries(b, 2);
  EXPECT_EQ(p2[4], PressureBoundary::periodic);
  EXPECT_EQ(p2[5], PressureBoundary::periodic);
  eddy::solver::PoissonProblem problem;
  problem.faces = p3;
  EXPECT_FALSE(problem.singular());
  problem.faces = p2;
  problem.faces[1] = PressureBoundary::neumann;
  EXPECT_TRUE(problem.singular());
}

TEST(PoissonOperator, CoarseningStopsWhereAnyBlockIsOddOrSmall) {
  // 3D, 24 x 16 x 40 cells on 2 x 1 x 1 ranks: x blocks 12 -> 6 -> 3, y 16 -> 8 -> 4 -> 2, z 40 -> 20 -> 10 -> 5.
  eddy::grid::GlobalGrid g{3, {24, 16, 40}, {1, 1, 1}, {0, 0, 0}, {false, false, false}};
  eddy::solver::PoissonLevel level;
  level.decomp = eddy::grid::plan_decomposition(g, 2, 0, {2, 1, 1});
  level.shape = eddy::fields::local_shape(level.decomp, 1);
  std::vector<eddy::Int3> factors;
  while (true) {
    const auto f = eddy::solver::coarsening_factor(level);
    if (f == eddy::Int3{1, 1, 1}) break;
    factors.push_back(f);
    level = eddy::solver::coarsen(level, f);
  }
  const std::vector<eddy::Int3> expected{{2, 2, 2}, {2, 2, 2}, {1, 2, 2}};
  EXPECT_EQ(factors, expected);
  EXPECT_EQ(level.decomp.local_cells, (eddy::Int3{3, 2, 5}));
  EXPECT_DOUBLE_EQ(level.spacing[1], 8.0);
  // 2D never coarsens z; 25 cells on 3 ranks (9, 8, 8) stop at once along x.
  eddy::grid::GlobalGrid plane{2, {25, 32, 1}, {1, 1, 1}, {0, 0, 0}, {false, false, true}};
  eddy::solver::PoissonLevel flat;
  flat.decomp = eddy::grid::plan_decomposition(plane, 3, 1, {3, 1, 1});
  EXPECT_EQ(eddy::solver::coarsening_factor(flat), (eddy::Int3{1, 2, 1}));
}

// The column form of the restriction (GPU builds choose it for 3D levels coarsened by two along every axis) against
// the form with one thread per coarse cell: the coarse right-hand side equal to round-off, and the columns' shares of
// the check's sums adding up to the cells' shares and to the sums themselves, on levels of several column chunks
// along z.
TEST(PoissonOperator, RestrictionByColumnsEqualsTheCellForm) {
  using eddy::solver::CheckPartials;
  for (const eddy::Int3 cells : {eddy::Int3{16, 16, 16}, eddy::Int3{8, 16, 40}}) {
    PoissonSetup setup(MPI_COMM_WORLD, 3, cells, eddy::testing::uniform_faces(PressureBoundary::neumann, 3), 1,
                       {1.0, 0.5, 2.0});
    const eddy::solver::PoissonLevel fine{setup.problem.decomp, setup.problem.shape, setup.problem.spacing,
                                          setup.problem.faces};
    const eddy::Int3 by_two{2, 2, 2};
    const auto coarse = eddy::solver::coarsen(fine, by_two);
    Field x = eddy::fields::make_field("x", fine.shape), b = eddy::fields::make_field("b", fine.shape);
    Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(5 + setup.context->rank());
    Kokkos::fill_random(x, pool, Real(-1), Real(1));
    Kokkos::fill_random(b, pool, Real(-1), Real(1));
    ASSERT_TRUE(eddy::solver::fits_restriction_columns(fine, by_two, {x, b}));
    const long long count =
        static_cast<long long>(coarse.shape.cells[0]) * coarse.shape.cells[1] * coarse.shape.cells[2];
    CheckPartials by_cells("by_cells", count), by_columns("by_columns", count);
    Field coarse_cells = eddy::fields::make_field("cells", coarse.shape),
          coarse_columns = eddy::fields::make_field("columns", coarse.shape);
    eddy::Buffer sums("sums", 3);
    for (const bool with_sums : {false, true}) {
      Kokkos::deep_copy(coarse_cells, Real(-7));
      Kokkos::deep_copy(coarse_columns, Real(-3));
      if (with_sums) {
        eddy::solver::restrict_residual_with_sums(coarse_cells, x, b, fine, coarse, by_two, by_cells, sums,
                                                  *setup.reducer);
        eddy::solver::restrict_residual_by_columns(coarse_columns, x, b, fine, coarse, by_columns);
      } else {
        eddy::solver::restrict_residual_by_cells(coarse_cells, x, b, fine, coarse, by_two);
        eddy::solver::restrict_residual_by_columns(coarse_columns, x, b, fine, coarse, CheckPartials());
      }
      auto cells_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coarse_cells);
      auto columns_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coarse_columns);
      const int g = coarse.shape.ghost;
      int differ = 0;
      for (int k = 0; k < coarse.shape.extent(2); ++k)
        for (int j = 0; j < coarse.shape.extent(1); ++j)
          for (int i = 0; i < coarse.shape.extent(0); ++i) {
            const bool owned = i >= g && i < g + coarse.shape.cells[0] && j >= g && j < g + coarse.shape.cells[1] &&
                               k >= g && k < g + coarse.shape.cells[2];
            // Owned cells equal; ghosts keep what each field held.
            if (owned && std::abs(cells_host(i, j, k) - columns_host(i, j, k)) > 1e-12 * std::abs(cells_host(i, j, k)))
              ++differ;
            if (!owned && (cells_host(i, j, k) != -7 || columns_host(i, j, k) != -3)) ++differ;
          }
      EXPECT_EQ(differ, 0) << "cells " << cells[0] << "x" << cells[1] << "x" << cells[2] << ", sums " << with_sums;
      if (!with_sums) continue;
      // Without a coarse field both forms give the same shares, bit for bit, and the same sums.
      CheckPartials cells_only("cells_only", count), columns_only("columns_only", count);
      eddy::Buffer sums_only("sums_only", 3);
      eddy::solver::restrict_residual_with_sums(Field(), x, b, fine, coarse, by_two, cells_only, sums_only,
                                                *setup.reducer);
      eddy::solver::restrict_residual_by_columns(Field(), x, b, fine, coarse, columns_only);
      const auto only = eddy::solver::read_sums<3>(sums_only), with_coarse = eddy::solver::read_sums<3>(sums);
      for (int v = 0; v < 3; ++v) EXPECT_NEAR(only[v], with_coarse[v], 1e-14 * (std::abs(with_coarse[v]) + count));
      const auto same_shares = [](CheckPartials a, CheckPartials b, long long n) {
        auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
        auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
        for (long long i = 0; i < n; ++i)
          for (int v = 0; v < 3; ++v)
            if (ha(i).value[v] != hb(i).value[v]) return false;
        return true;
      };
      EXPECT_TRUE(same_shares(cells_only, by_cells, eddy::solver::check_partial_count(x, b, fine, coarse, by_two)));
      EXPECT_TRUE(same_shares(columns_only, by_columns, eddy::solver::restriction_column_count(coarse)));
      // The columns' shares add up to the check's sums over this rank's cells.
      std::array<Real, 3> expected{}, added{};
      eddy::solver::residual_sums(x, b, fine, sums, *setup.reducer);  // over all ranks: compare on one
      auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), by_columns);
      for (long long n = 0; n < eddy::solver::restriction_column_count(coarse); ++n)
        for (int v = 0; v < 3; ++v) added[v] += c(n).value[v];
      if (setup.context->size() == 1) {
        expected = eddy::solver::read_sums<3>(sums);
        for (int v = 0; v < 3; ++v)
          EXPECT_NEAR(added[v], expected[v], 1e-12 * (std::abs(expected[v]) + count))
              << "sum " << v << ", cells " << cells[0] << "x" << cells[1] << "x" << cells[2];
      }
      // And they are what the cell form's shares add up to, on every rank.
      auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), by_cells);
      std::array<Real, 3> by_cell_sums{};
      for (long long n = 0; n < count; ++n)
        for (int v = 0; v < 3; ++v) by_cell_sums[v] += a(n).value[v];
      for (int v = 0; v < 3; ++v)
        EXPECT_NEAR(added[v], by_cell_sums[v], 1e-12 * (std::abs(by_cell_sums[v]) + count))
            << "sum " << v << ", cells " << cells[0] << "x" << cells[1] << "x" << cells[2];
    }
  }
}

TEST(PoissonOperator, ProlongationIsExactOnLinearFunctions) {
  struct Case {
    int dim;
    eddy::Int3 cells, factor;
  };
  const Case cases[] = {{3, {8, 8, 8}, {2, 2, 2}},   {3, {8, 8, 8}, {1, 2, 2}},  {3, {8, 8, 8}, {2, 1, 2}},
                        {3, {12, 8, 16}, {2, 2, 2}}, {3, {8, 12, 8}, {2, 1, 2}}, {2, {8, 8, 1}, {2, 2, 1}},
                        {2, {8, 8, 1}, {1, 2, 1}}};
  // Every case through prolong_add (its GPU or CPU form), and the cases the column form takes (3D, coarsened by two
  // along every axis, which GPU builds send to it) also through that form.
  for (const auto& c : cases) {
    for (const bool by_columns : {false, true}) {
      if (by_columns && (c.dim != 3 || c.factor != eddy::Int3{2, 2, 2})) continue;
      PoissonSetup setup(MPI_COMM_WORLD, c.dim, c.cells, eddy::testing::uniform_faces(PressureBoundary::neumann, c.dim),
                         1, {1.0, 0.5, 2.0});
      const eddy::solver::PoissonLevel fine{setup.problem.decomp, setup.problem.shape, setup.problem.spacing,
                                            setup.problem.faces};
      const auto coarse = eddy::solver::coarsen(fine, c.factor);
      const Real slope_z = c.dim == 3 ? 0.4 : 0;
      auto linear = [&](Real x, Real y, Real z) { return 0.3 + 1.1 * x - 0.7 * y + slope_z * z; };
      // The coarse correction holds the linear function at its centres, ghosts included.
      Field coarse_x = eddy::fields::make_field("coarse_x", coarse.shape);
      auto host = Kokkos::create_mirror_view(coarse_x);
      const int g = coarse.shape.ghost;
      auto centre = [&](int axis, int index) {
        return (coarse.decomp.offset[axis] + index - g + 0.5) * coarse.spacing[axis];
      };
      for (int k = 0; k < coarse.shape.extent(2); ++k)
        for (int j = 0; j < coarse.shape.extent(1); ++j)
          for (int i = 0; i < coarse.shape.extent(0); ++i)
            host(i, j, k) = linear(centre(0, i), centre(1, j), centre(2, k));
      Kokkos::deep_copy(coarse_x, host);
      auto before = [](Real x, Real y, Real) { return 2 - x * y; };
      Field x = setup.field_from(before);
      if (by_columns && !eddy::solver::fits_prolongation_columns(fine, c.factor, {x})) continue;  // odd on some ranks
      if (by_columns) {
        eddy::solver::prolong_add_by_columns(x, coarse_x, fine, coarse);
      } else {
        eddy::solver::prolong_add(x, coarse_x, fine, coarse, c.factor);
      }
      Field expected = setup.field_from([&](Real x, Real y, Real z) { return before(x, y, z) + linear(x, y, z); });
      EXPECT_LT(setup.rms_difference(x, expected, false), 1e-13)
          << c.dim << "D, factor " << c.factor[0] << c.factor[1] << c.factor[2] << (by_columns ? ", by columns" : "");
    }
  }
}

// The column form adds what the portable form adds (to rounding: they interpolate along the axes in another order),
// and leaves every ghost as it was, including the ghost rows that the first and last threads of each column read.
TEST(PoissonOperator, ProlongationByColumnsEqualsParentPairsEverywhere) {
  for (const eddy::Int3 cells :
       {eddy::Int3{8, 8, 8}, eddy::Int3{12, 8, 16}, eddy::Int3{8, 12, 8}, eddy::Int3{16, 8, 8}}) {
    PoissonSetup setup(MPI_COMM_WORLD, 3, cells, eddy::testing::uniform_faces(PressureBoundary::periodic, 3), 1,
                       {1.0, 0.5, 2.0});
    const eddy::solver::PoissonLevel fine{setup.problem.decomp, setup.problem.shape, setup.problem.spacing,
                                          setup.problem.faces};
    const auto& n = fine.shape.cells;
    if (n[0] % 2 != 0 || n[1] % 2 != 0 || n[2] % 2 != 0) continue;  // a split that leaves a block odd
    const eddy::Int3 by_two{2, 2, 2};
    const auto coarse = eddy::solver::coarsen(fine, by_two);
    Field coarse_x = eddy::fields::make_field("coarse_x", coarse.shape);
    Field parent_pairs = eddy::fields::make_field("parent_pairs", fine.shape),
          columns = eddy::fields::make_field("columns", fine.shape);
    if (!eddy::solver::fits_prolongation_columns(fine, by_two, {columns})) continue;
    Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(17);
    Kokkos::fill_random(coarse_x, pool, -1.0, 1.0);
    Kokkos::fill_random(parent_pairs, pool, -1.0, 1.0);
    Kokkos::deep_copy(columns, parent_pairs);
    const auto before = Kokkos::create_mirror(Kokkos::HostSpace(), parent_pairs);  // a copy on every backend
    Kokkos::deep_copy(before, parent_pairs);
    eddy::solver::prolong_add_by_parent_pairs(parent_pairs, coarse_x, fine, coarse, 2, 2);
    eddy::solver::prolong_add_by_columns(columns, coarse_x, fine, coarse);
    const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parent_pairs);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), columns);
    const int g = fine.shape.ghost;
    long long differ = 0, ghosts_moved = 0, owned_unmoved = 0;
    for (int k = 0; k < fine.shape.extent(2); ++k)
      for (int j = 0; j < fine.shape.extent(1); ++j)
        for (int i = 0; i < fine.shape.extent(0); ++i) {
          const bool owned = i >= g && i < g + n[0] && j >= g && j < g + n[1] && k >= g && k < g + n[2];
          differ += std::abs(a(i, j, k) - b(i, j, k)) > 1e-13;
          if (owned) {
            owned_unmoved += b(i, j, k) == before(i, j, k);
          } else {
            ghosts_moved += b(i, j, k) != before(i, j, k);
          }
        }
    EXPECT_EQ(differ, 0) << cells[0] << "x" << cells[1] << "x" << cells[2];
    EXPECT_EQ(ghosts_moved, 0) << cells[0] << "x" << cells[1] << "x" << cells[2];
    EXPECT_EQ(owned_unmoved, 0) << cells[0] << "x" << cells[1] << "x" << cells[2];
  }
}
