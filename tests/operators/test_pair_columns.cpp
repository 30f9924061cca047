// The GPU forms of the projection's kernels (columns of cell pairs marched up z, grid/pair_columns.hpp) against the
// staggered differences evaluated point by point on the host: divergence at the owned cells, the pressure-gradient
// correction on each component's face box (every other point left as it was), and the step's flow diagnostics. They
// run on every backend here.
#include "core/error.hpp"
#include "grid/decomposition.hpp"
#include "grid/pair_columns.hpp"
#include "operators/divergence.hpp"
#include "operators/flow_diagnostics.hpp"
#include "operators/gradient.hpp"
#include "round_off.hpp"
#include "solver/laplacian.hpp"
#include "solver/poisson_level.hpp"
#include "solver/prolongation.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Random.hpp>

#include <mpi.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::operators::CorrectedBoundaries;
using eddy::operators::StaggeredGrid;

constexpr Real kUntouched = -7;

// The field layouts tested: ghost width and row padding.
struct Layout {
  int ghost, row_padding;
};
constexpr Layout kLayouts[] = {{1, 0}, {2, 0}, {1, 6}};

struct Block {
  eddy::grid::Decomposition decomp;
  StaggeredGrid grid;
  eddy::fields::FlowState state;
};

// More than one tile of pairs along x and of rows along y, and more than one column chunk along z (the last one
// short); walls on x and y, so the face boxes of the correction differ from the owned cells there. `row_padding`
// points follow the ghosts of every row.
Block make_block(int dim, int ghost, int row_padding = 0) {
  eddy::grid::GlobalGrid g;
  g.dim = dim;
  g.cells = {72, 20, dim == 3 ? 36 : 1};
  g.length = {1.0, 0.75, 1.5};
  g.periodic = {false, false, true};
  Block b;
  b.decomp = eddy::grid::decompose(g, MPI_COMM_WORLD);
  auto shape = eddy::fields::local_shape(b.decomp, ghost);
  shape.row_padding = row_padding;
  b.grid = eddy::operators::make_staggered_grid(b.decomp, shape);
  b.state = eddy::fields::FlowState::allocate(shape);
  Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(29 + b.decomp.rank);
  for (const Field& f : {b.state.u, b.state.v, b.state.w, b.state.p}) Kokkos::fill_random(f, pool, Real(-1), Real(1));
  return b;
}

using Host = Field::host_mirror_type;
// A copy on the host (never an alias, also where the field already lives there).
Field random_field(const char* name, const eddy::fields::LocalShape& shape, int seed) {
  const Field f = eddy::fields::make_field(name, shape);
  Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(seed);
  Kokkos::fill_random(f, pool, Real(-1), Real(1));
  return f;
}

Host on_host(const Field& f) {
  Host copy = Kokkos::create_mirror(Kokkos::HostSpace(), f);
  Kokkos::deep_copy(copy, f);
  return copy;
}

bool differs(Real value, Real expected) {
  return !(std::abs(value - expected) <= eddy::testing::round_off(1e-10, 1e-5) * (1 + std::abs(expected)));
}

// Points of `div` that differ from scale * div(u) on the owned cells, or from kUntouched elsewhere.
int divergence_mismatches(const Block& b, const Field& div, Real scale) {
  const Host u = on_host(b.state.u), v = on_host(b.state.v), w = on_host(b.state.w), d = on_host(div);
  const auto& s = b.grid.shape;
  const auto& inv = b.grid.inv;
  const int g = s.ghost;
  int mismatches = 0;
  for (int k = 0; k < s.extent(2); ++k)
    for (int j = 0; j < s.extent(1); ++j)
      for (int i = 0; i < s.extent(0); ++i) {
        const bool owned = i >= g && i < g + s.cells[0] && j >= g && j < g + s.cells[1] && k >= g && k < g + s.cells[2];
        Real expected = kUntouched;
        if (owned) {
          expected = (u(i, j, k) - u(i - 1, j, k)) * inv.x + (v(i, j, k) - v(i, j - 1, k)) * inv.y;
          if (b.grid.three_d) expected += (w(i, j, k) - w(i, j, k - 1)) * inv.z;
          expected *= scale;
        }
        mismatches += differs(d(i, j, k), expected);
      }
  return mismatches;
}

// Points of the corrected component `after` (axis a) that differ from before - factor * d(phi)/dx_a on its face box
// (grid.face_box with the corrected sides), or from `before` elsewhere.
int correction_mismatches(const Block& b, const Host& before, const Field& after, const Host& phi, int a, Real factor,
                          const CorrectedBoundaries& corrected) {
  const Host now = on_host(after);
  const auto& s = b.grid.shape;
  const Real inv[3] = {b.grid.inv.x, b.grid.inv.y, b.grid.inv.z};
  const auto [lo, hi] = b.grid.face_box(a, corrected[a][0], corrected[a][1]);
  const bool moves = a < b.grid.components();
  int mismatches = 0;
  for (int k = 0; k < s.extent(2); ++k)
    for (int j = 0; j < s.extent(1); ++j)
      for (int i = 0; i < s.extent(0); ++i) {
        const bool in_box = i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
        Real expected = before(i, j, k);
        if (moves && in_box) {
          const Real high = phi(i + (a == 0), j + (a == 1), k + (a == 2));
          expected -= factor * (high - phi(i, j, k)) * inv[a];
        }
        mismatches += differs(now(i, j, k), expected);
      }
  return mismatches;
}

// The rank's flow diagnostics summed cell by cell on the host: energy, max |div u| and max CFL rate.
eddy::operators::LocalDiagnostics host_diagnostics(const Block& b) {
  const Host u = on_host(b.state.u), v = on_host(b.state.v), w = on_host(b.state.w);
  const auto& s = b.grid.shape;
  const auto& inv = b.grid.inv;
  const int g = s.ghost;
  eddy::operators::LocalDiagnostics d;
  for (int k = g; k < g + s.cells[2]; ++k)
    for (int j = g; j < g + s.cells[1]; ++j)
      for (int i = g; i < g + s.cells[0]; ++i) {
        Real energy = u(i, j, k) * u(i, j, k) + v(i, j, k) * v(i, j, k);
        Real div = (u(i, j, k) - u(i - 1, j, k)) * inv.x + (v(i, j, k) - v(i, j - 1, k)) * inv.y;
        Real rate = std::max(std::abs(u(i - 1, j, k)), std::abs(u(i, j, k))) * inv.x +
                    std::max(std::abs(v(i, j - 1, k)), std::abs(v(i, j, k))) * inv.y;
        if (b.grid.three_d) {
          energy += w(i, j, k) * w(i, j, k);
          div += (w(i, j, k) - w(i, j, k - 1)) * inv.z;
          rate += std::max(std::abs(w(i, j, k - 1)), std::abs(w(i, j, k))) * inv.z;
        }
        d.kinetic_energy += 0.5 * energy * b.grid.cell_volume();
        d.max_divergence = std::max(d.max_divergence, std::abs(div));
        d.velocity_rate = std::max(d.velocity_rate, rate);
      }
  return d;
}

void expect_close(const eddy::operators::LocalDiagnostics& got, const eddy::operators::LocalDiagnostics& expected,
                  const std::string& label) {
  const double relative = eddy::testing::round_off(1e-12, 1e-5);
  EXPECT_NEAR(got.kinetic_energy, expected.kinetic_energy, relative * expected.kinetic_energy) << label;
  EXPECT_NEAR(got.max_divergence, expected.max_divergence, relative * expected.max_divergence) << label;
  EXPECT_NEAR(got.velocity_rate, expected.velocity_rate, relative * expected.velocity_rate) << label;
}

}  // namespace

// Columns stay kPairPlanes long where the loop fills the device, and shorten, two planes at the least and always
// even, until it does.
TEST(PairColumns, ColumnsShortenUntilTheLoopFillsTheDevice) {
  using eddy::grid::column_planes;
  using eddy::grid::kPairPlanes;
  EXPECT_EQ(column_planes(256, 512, 512, 270336, kPairPlanes), kPairPlanes);  // the finest level of 512^3 on an H200
  // 64 pairs (two tiles) by 64 rows: 4096 threads a plane, 32768 with columns of 8 planes.
  EXPECT_EQ(column_planes(64, 64, 64, 4096 * 8, kPairPlanes), kPairPlanes);
  EXPECT_EQ(column_planes(64, 64, 64, 4096 * 8 + 1, kPairPlanes), kPairPlanes / 2);
  EXPECT_EQ(column_planes(64, 64, 64, 4096 * 16 + 1, kPairPlanes), 2);
  EXPECT_EQ(column_planes(64, 64, 64, 1LL << 40, kPairPlanes), 2);
  // A reduction's columns, twice as long, shorten the same way.
  const int reduction = eddy::grid::reduction_planes(kPairPlanes);
  EXPECT_EQ(reduction, 2 * kPairPlanes);
  EXPECT_EQ(eddy::grid::reduction_planes(1024), 1024);
  EXPECT_EQ(column_planes(256, 512, 512, 270336, reduction), reduction);
  EXPECT_EQ(column_planes(64, 64, 64, 4096 * 4, reduction), reduction);
  EXPECT_EQ(column_planes(64, 64, 64, 4096 * 4 + 1, reduction), reduction / 2);
  for (long long resident : {1LL, 1LL << 16, 1LL << 20, 1LL << 40}) {
    for (int planes : {1, 2, 7, 64}) {
      const int chunk = column_planes(3, 5, planes, resident, kPairPlanes);
      EXPECT_TRUE(chunk == 2 || chunk == 4 || chunk == 8) << chunk;
    }
  }
}

// Every pair of cells that meets a box, on every row and plane of it, belongs to exactly one thread's column, whole
// tiles and the pairs past them alike, however long the columns; its flags say which of its two cells lie in the box.
TEST(PairColumns, TilingCoversEveryPairOfTheBoxOnce) {
  const eddy::Int3 boxes[][2] = {{{1, 1, 1}, {513, 11, 20}},  // 257 pairs: eight tiles and one pair past them
                                 {{0, 0, 0}, {64, 8, 8}},     // whole tiles only
                                 {{3, 2, 5}, {40, 7, 6}},     // fewer pairs than a tile
                                 {{2, 1, 0}, {133, 19, 17}}};
  for (const int longest : {eddy::grid::kPairPlanes, eddy::grid::reduction_planes(eddy::grid::kPairPlanes)})
    for (const long long resident : {1LL, 1LL << 40})
      for (const auto& box : boxes) {
        const eddy::Int3 lo = box[0], hi = box[1];
        const auto tiling = eddy::grid::pair_tiling("test", lo, hi, resident, longest);
        EXPECT_EQ(tiling.planes, resident == 1 ? longest : 2);
        const int lo_pair = lo[0] / 2, pairs = (hi[0] - 1) / 2 - lo_pair + 1;
        std::vector<int> seen(static_cast<std::size_t>(pairs) * (hi[1] - lo[1]) * (hi[2] - lo[2]), 0);
        int wrong_flags = 0;
        for (int t = 0; t < tiling.threads; ++t) {
          eddy::grid::PairColumn c;
          if (!tiling.column(t, c)) continue;
          wrong_flags +=
              c.first_in != (c.i >= lo[0] && c.i < hi[0]) || c.second_in != (c.i + 1 >= lo[0] && c.i + 1 < hi[0]);
          for (int k = c.k0; k < c.k1; ++k) {
            ASSERT_TRUE(c.i / 2 >= lo_pair && c.i / 2 < lo_pair + pairs && c.j >= lo[1] && c.j < hi[1] && k >= lo[2] &&
                        k < hi[2])
                << "thread " << t << " left the box at pair " << c.i / 2 << ", row " << c.j << ", plane " << k;
            ++seen[(static_cast<std::size_t>(k - lo[2]) * (hi[1] - lo[1]) + (c.j - lo[1])) * pairs +
                   (c.i / 2 - lo_pair)];
          }
        }
        EXPECT_EQ(wrong_flags, 0);
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long long>(seen.size()))
            << "box from " << lo[0] << " to " << hi[0] << ", columns of up to " << longest
            << " planes: pairs missed or taken twice";
      }
}

TEST(PairColumns, DivergenceMatchesTheDifferencesCellByCell) {
  for (int dim : {2, 3}) {
    for (const auto [ghost, padding] : kLayouts) {
      const Block b = make_block(dim, ghost, padding);
      const Field div = eddy::fields::make_field("div", b.grid.shape);
      ASSERT_TRUE(eddy::grid::fits_cell_pairs(b.grid.shape, {b.state.u, b.state.v, b.state.w, div}));
      Kokkos::deep_copy(div, kUntouched);
      eddy::operators::compute_divergence_by_pairs(b.state, div, b.grid, 0.5);
      EXPECT_EQ(divergence_mismatches(b, div, 0.5), 0)
          << "dim " << dim << ", ghost " << ghost << ", padding " << padding;
    }
  }
}

// Every column length the correction may march (its default, and the others `bench flow` times against it).
TEST(PairColumns, GradientCorrectionMovesEachComponentOnItsFaceBoxOnly) {
  const CorrectedBoundaries none{}, outflows{{{true, false}, {false, true}, {true, true}}};
  for (const int longest : {eddy::operators::correction_planes(eddy::grid::kPairPlanes), 2, 4, 16})
    for (int dim : {2, 3}) {
      for (const auto [ghost, padding] : kLayouts) {
        for (const CorrectedBoundaries& corrected : {none, outflows}) {
          const Block b = make_block(dim, ghost, padding);
          const Field components[3] = {b.state.u, b.state.v, b.state.w};
          const Host before[3] = {on_host(b.state.u), on_host(b.state.v), on_host(b.state.w)};
          const Host phi = on_host(b.state.p);
          eddy::operators::subtract_pressure_gradient_by_pairs(b.state, b.state.p, 0.8, b.grid, corrected, {}, longest);
          for (int a = 0; a < 3; ++a) {
            EXPECT_EQ(correction_mismatches(b, before[a], components[a], phi, a, 0.8, corrected), 0)
                << "columns of up to " << longest << " planes, dim " << dim << ", ghost " << ghost << ", padding "
                << padding << ", component " << a << ", outflows " << corrected[0][0];
          }
        }
      }
    }
}

TEST(PairColumns, RefuseRowsOfOddLength) {
  eddy::grid::GlobalGrid g;
  g.dim = 3;
  g.cells = {15, 4, 4};
  const auto decomp = eddy::grid::decompose(g, MPI_COMM_SELF);
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const auto grid = eddy::operators::make_staggered_grid(decomp, shape);
  const auto state = eddy::fields::FlowState::allocate(shape);
  EXPECT_FALSE(eddy::grid::fits_cell_pairs(shape, {state.u}));
  EXPECT_THROW(eddy::operators::compute_divergence_by_pairs(state, state.p, grid, 1), eddy::Error);
  EXPECT_THROW(eddy::operators::subtract_pressure_gradient_by_pairs(state, state.p, 1, grid, {}), eddy::Error);
}

TEST(PairColumns, FlowDiagnosticsMatchTheirCellByCellSums) {
  for (int dim : {2, 3}) {
    for (const auto [ghost, padding] : kLayouts) {
      const Block b = make_block(dim, ghost, padding);
      const auto expected = host_diagnostics(b);
      const std::string label =
          "dim " + std::to_string(dim) + ", ghost " + std::to_string(ghost) + ", padding " + std::to_string(padding);
      expect_close(eddy::operators::local_flow_diagnostics_by_pairs(b.state, b.grid), expected, label + ", pairs");
      expect_close(eddy::operators::local_flow_diagnostics(b.state, b.grid), expected, label + ", production");
    }
  }
}

// A blown-up cell must show in the energy and the divergence, whichever cell of a pair it is; the rate is what the
// cell-by-cell loop gives (it takes the larger of two faces with fmax, which passes over a NaN).
TEST(PairColumns, FlowDiagnosticsReportANaNInEitherCellOfAPair) {
  for (int offset : {0, 1}) {
    const Block b = make_block(3, 1);
    const int g = b.grid.shape.ghost;
    auto v = Kokkos::subview(b.state.v, g + 10 + offset, g + 3, g + 4);
    Kokkos::deep_copy(v, std::nan(""));
    const auto d = eddy::operators::local_flow_diagnostics_by_pairs(b.state, b.grid);
    const auto cells = eddy::operators::local_flow_diagnostics(b.state, b.grid);
    EXPECT_TRUE(std::isnan(d.kinetic_energy) && std::isnan(d.max_divergence))
        << "offset " << offset << ": " << d.kinetic_energy << " " << d.max_divergence;
    EXPECT_TRUE(d.velocity_rate == cells.velocity_rate ||
                (std::isnan(d.velocity_rate) && std::isnan(cells.velocity_rate)))
        << "offset " << offset << ": " << d.velocity_rate << " against " << cells.velocity_rate;
  }
}

// Whatever column length tuning.pair_planes sets, the loops by pairs write the same bits: the residual, the
// divergence, the prolongation and the correction (whose columns are half as long).
TEST(PairColumns, PairLoopsGiveTheSameBitsAtEveryColumnLength) {
  eddy::grid::GlobalGrid g;
  g.dim = 3;
  g.cells = {72, 20, 36};
  g.length = {1.0, 0.75, 1.5};
  g.periodic = {true, true, true};
  const auto decomp = eddy::grid::decompose(g, MPI_COMM_WORLD);
  struct Outputs {
    Host residual, divergence, prolonged, corrected;
  };
  const auto run_at = [&](int planes) {
    eddy::solver::PoissonLevel fine;
    fine.decomp = decomp;
    fine.shape = eddy::fields::local_shape(decomp, 1, planes);
    for (int a = 0; a < 3; ++a) fine.spacing[a] = g.spacing(a);
    const auto coarse = eddy::solver::coarsen(fine, {2, 2, 2});
    const auto grid = eddy::operators::make_staggered_grid(decomp, fine.shape);
    const Field phi = random_field("phi", fine.shape, 3 + decomp.rank);
    const Field rhs = random_field("rhs", fine.shape, 5 + decomp.rank);
    const Field coarse_x = random_field("coarse_x", coarse.shape, 9 + decomp.rank);
    auto state = eddy::fields::FlowState::allocate(fine.shape);
    for (const Field& f : {state.u, state.v, state.w}) Kokkos::deep_copy(f, random_field("velocity", fine.shape, 7));
    const Field residual = random_field("residual", fine.shape, 11), divergence = random_field("div", fine.shape, 13);
    const Field prolonged = random_field("prolonged", fine.shape, 17);
    EXPECT_TRUE(eddy::solver::fits_laplacian_pairs(fine.shape, fine.weights(), {residual, phi, rhs}));
    EXPECT_TRUE(eddy::solver::fits_prolongation_columns(fine, {2, 2, 2}, {prolonged}));
    eddy::solver::laplacian_by_pairs(residual, phi, rhs, fine.shape, fine.weights());
    eddy::operators::compute_divergence_by_pairs(state, divergence, grid, 0.5);
    eddy::solver::prolong_add_by_columns(prolonged, coarse_x, fine, coarse);
    eddy::operators::subtract_pressure_gradient_by_pairs(state, phi, 0.8, grid, {});
    return Outputs{on_host(residual), on_host(divergence), on_host(prolonged), on_host(state.u)};
  };
  const auto same_bits = [](const Host& a, const Host& b) {
    return a.span() == b.span() && std::equal(a.data(), a.data() + a.span(), b.data(),
                                              [](Real x, Real y) { return std::memcmp(&x, &y, sizeof x) == 0; });
  };
  const Outputs reference = run_at(eddy::grid::kPairPlanes);
  for (const int planes : {2, 4, 16, 64}) {
    const Outputs other = run_at(planes);
    EXPECT_TRUE(same_bits(reference.residual, other.residual)) << planes << " planes";
    EXPECT_TRUE(same_bits(reference.divergence, other.divergence)) << planes << " planes";
    EXPECT_TRUE(same_bits(reference.prolonged, other.prolonged)) << planes << " planes";
    EXPECT_TRUE(same_bits(reference.corrected, other.corrected)) << planes << " planes";
  }
}
