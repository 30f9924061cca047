// The fused red-black sweep (one kernel into a second field, then the second colour on shared faces) gives the same
// field as two colour passes with an exchange between them: for every face condition, in 2D (by pairs) and 3D (by
// phases), on blocks that no tile divides, with one or several teams along z, for both colour orders, on 1, 2 and 4
// ranks.
// Multigrid cycles built on either form agree, and cycles replayed as a CUDA graph (GPUs) equal those launched
// kernel by kernel.
#include "poisson_test_support.hpp"
#include "solver/multigrid.hpp"
#include "solver/poisson_level.hpp"
#include "solver/red_black.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

using eddy::Field;
using eddy::Real;
using eddy::solver::PressureBoundary;
using eddy::testing::PoissonSetup;

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
constexpr bool cuda_build = true;
#else
constexpr bool cuda_build = false;
#endif

Real rough(Real x, Real y, Real z) { return std::sin(37 * x + 3 * y) + std::cos(23 * y - 11 * z) + x * z; }
Real source(Real x, Real y, Real z) { return 40 * std::cos(5 * x - 2 * z) * std::sin(7 * y); }

// `least_change`: the smallest change of the field a sweep must make, relative to its largest value.
void expect_fused_equals_passes(int dim, eddy::Int3 cells, const eddy::testing::PressureFaces& faces, int planes,
                                Real relaxation, Real least_change = 0.1) {
  PoissonSetup setup(MPI_COMM_WORLD, dim, cells, faces);
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  ASSERT_TRUE(eddy::solver::fused_sweep_fits(level));
  eddy::solver::GhostFiller ghosts(*setup.context, level, setup.halo_transport(), true);
  Field rhs = setup.field_from(source);
  for (int first : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(dim) + " planes " + std::to_string(planes) + " first colour " +
                 std::to_string(first) + " relaxation " + std::to_string(relaxation) + " faces " +
                 std::to_string(static_cast<int>(faces[0])) + std::to_string(static_cast<int>(faces[1])) +
                 std::to_string(static_cast<int>(faces[2])) + std::to_string(static_cast<int>(faces[4])));
    Field start = setup.field_from(rough), passes = setup.field_from(rough);
    ghosts.fill(start);
    ghosts.fill(passes);
    eddy::solver::red_black_sweep(passes, rhs, level, first, relaxation);
    ghosts.exchange(passes);
    eddy::solver::red_black_sweep(passes, rhs, level, 1 - first, relaxation);
    ghosts.fill(passes);

    Field fused = eddy::fields::make_field("fused", p.shape);
    eddy::solver::fused_sweep_interior(fused, start, rhs, level, first, relaxation, planes);
    ghosts.exchange(fused);
    eddy::solver::sweep_shared_faces(fused, start, rhs, level, 1 - first, relaxation);
    ghosts.fill(fused);

    const auto [difference, size] = setup.max_difference(fused, passes);
    EXPECT_LE(difference, 1e-13 * size);
    const auto [change, unused] = setup.max_difference(start, passes);
    EXPECT_GT(change, least_change * size);  // the sweep did change the field
  }
}

struct CycleVariant {
  eddy::solver::SweepForm sweeps;
  eddy::solver::CycleLaunch launch;
};

// Five cycles of each variant from the same start: colour passes and fused sweeps agree to round-off, graph replays
// equal kernel-by-kernel launches exactly.
void expect_cycles_agree(const eddy::testing::PressureFaces& faces, const std::array<int, 2>& smoothing,
                         const CycleVariant (&variants)[3]) {
  using eddy::solver::CycleLaunch;
  SCOPED_TRACE("V(" + std::to_string(smoothing[0]) + "," + std::to_string(smoothing[1]) + ") faces " +
               std::to_string(static_cast<int>(faces[0])) + std::to_string(static_cast<int>(faces[4])));
  PoissonSetup setup(MPI_COMM_WORLD, 3, {32, 24, 20}, faces);
  const auto& p = setup.problem;
  const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
  auto config = eddy::testing::poisson_config(eddy::config::PoissonSolverType::multigrid, 1e-10, 30);
  config.pre_smooth = smoothing[0];
  config.post_smooth = smoothing[1];
  Field rhs = setup.field_from(source);
  Field iterate[3];
  for (int v = 0; v < 3; ++v) {
    eddy::solver::Multigrid multigrid(level, *setup.context, *setup.reducer, config, setup.halo_transport(),
                                      variants[v].sweeps, variants[v].launch);
    iterate[v] = eddy::fields::make_field("iterate", p.shape);
    multigrid.top_ghosts().fill(iterate[v]);
    // The first cycle runs directly, the second is recorded, the rest replay.
    for (int cycle = 0; cycle < 5; ++cycle) multigrid.cycle(iterate[v], rhs);
    // Kernels launched from the host on CPUs; on GPUs (one, or several of one node writing into each other's
    // buffers) the automatic cycle is a graph.
    EXPECT_EQ(multigrid.cycles_replayed(), cuda_build && variants[v].launch == CycleLaunch::automatic);
  }
  const auto [difference, size] = setup.max_difference(iterate[1], iterate[0]);
  EXPECT_GT(size, 0);
  EXPECT_LE(difference, 1e-10 * size);
  const auto [replay_difference, unused] = setup.max_difference(iterate[1], iterate[2]);
  EXPECT_EQ(replay_difference, 0);
}

// to = the owned values of `from`, NaN on every other point.
void copy_owned_ghosts_nan(Field from, Field to, const eddy::fields::LocalShape& shape) {
  Kokkos::deep_copy(to, std::nan(""));
  const int g = shape.ghost;
  Kokkos::parallel_for(
      "test::copy_owned",
      Kokkos::MDRangePolicy<eddy::ExecSpace, Kokkos::Rank<3>>(
          {g, g, g}, {g + shape.cells[0], g + shape.cells[1], g + shape.cells[2]}),
      KOKKOS_LAMBDA(int i, int j, int k) { to(i, j, k) = from(i, j, k); });
}

// start + factor (changed - start), point by point (ghosts included).
Field scaled_change(Field start, Field changed, Real factor) {
  Field result("scaled_change", start.layout());
  Kokkos::parallel_for(
      "test::scaled_change", Kokkos::RangePolicy<eddy::ExecSpace>(0, result.span()), KOKKOS_LAMBDA(std::size_t i) {
        result.data()[i] = start.data()[i] + factor * (changed.data()[i] - start.data()[i]);
      });
  return result;
}

}  // namespace

TEST(RedBlack, FusedSweepEqualsColourPasses3D) {
  for (const auto& faces : eddy::testing::face_variety(3)) {
    for (int planes : {0, 3, 32}) {
      for (Real relaxation : {1.0, 1.3}) expect_fused_equals_passes(3, {37, 21, 19}, faces, planes, relaxation);
    }
  }
}

// Blocks several tiles wide (on 1 and 2 ranks), where most of the phased form's tiles take its short path away from the
// x and y faces and their rims meet the neighbour tiles' (FusedSweepEqualsColourPasses3D checks blocks with every tile
// on a face).
TEST(RedBlack, PhasedSweepEqualsColourPassesOnWideBlocks) {
  for (const auto& faces : eddy::testing::face_variety(3)) {
    for (int planes : {0, 3, 32}) {
      for (Real relaxation : {1.0, 1.3}) expect_fused_equals_passes(3, {280, 40, 19}, faces, planes, relaxation, 0.02);
    }
  }
}

TEST(RedBlack, FusedSweepEqualsColourPasses2D) {
  for (const auto& faces : eddy::testing::face_variety(2)) {
    for (Real relaxation : {1.0, 1.3}) expect_fused_equals_passes(2, {45, 35, 1}, faces, 0, relaxation);
  }
}

TEST(RedBlack, MultigridCyclesAgreeForBothSweepFormsAndLaunches) {
  using eddy::solver::CycleLaunch;
  using eddy::solver::SweepForm;
  const CycleVariant variants[] = {{SweepForm::colour_passes, CycleLaunch::kernel_by_kernel},
                                   {SweepForm::fused, CycleLaunch::automatic},
                                   {SweepForm::fused, CycleLaunch::kernel_by_kernel}};
  // Odd sweep counts leave the fused form's iterate in the level's second field: V(1,1) carries it back through the
  // correction, V(1,2) and V(2,1) sweep once in place, V(1,0) copies it back.
  const std::array<int, 2> smoothings[] = {{2, 2}, {1, 1}, {1, 2}, {2, 1}, {1, 0}};
  for (const auto& faces : eddy::testing::face_variety(3)) {
    for (const auto& smoothing : smoothings) {
      expect_cycles_agree(faces, smoothing, variants);
    }
  }
}

// Where every face of a block is physical or a periodic wrap onto the block itself over an even number of cells, the
// colour passes read the owned cells the ghosts mirror: two passes with the ghosts left NaN and no exchange give the
// field of two passes with valid ghosts and the exchange between them. Odd counts and axes split between ranks read
// their ghosts as before.
TEST(RedBlack, ColourPassesReadNoGhostsWhereEveryAxisWrapsOntoTheBlock) {
  using PB = PressureBoundary;
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const eddy::testing::PressureFaces mixed = {PB::periodic,  PB::periodic, PB::neumann,
                                              PB::dirichlet, PB::periodic, PB::periodic};
  for (const auto& [cells, faces] :
       {std::pair{eddy::Int3{16, 12, 10}, eddy::testing::face_variety(3)[2]}, std::pair{eddy::Int3{16, 12, 10}, mixed},
        std::pair{eddy::Int3{16, 13, 10}, eddy::testing::face_variety(3)[2]}}) {
    PoissonSetup setup(MPI_COMM_WORLD, 3, cells, faces);
    const auto& p = setup.problem;
    const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
    bool expected = true;  // no axis split between ranks, and every periodic axis of an even number of cells
    for (int axis = 0; axis < 3; ++axis) {
      expected = expected && p.decomp.dims[axis] == 1 && (!p.decomp.global.periodic[axis] || cells[axis] % 2 == 0);
    }
    EXPECT_EQ(eddy::solver::colour_passes_read_no_ghosts(level), expected)
        << "cells " << cells[0] << "x" << cells[1] << "x" << cells[2] << " on " << ranks << " ranks";
    if (!expected) continue;
    eddy::solver::GhostFiller ghosts(*setup.context, level, setup.halo_transport(), true);
    Field rhs = setup.field_from(source);
    Field exchanged = setup.field_from(rough), owned_only = setup.field_from(rough);
    Field alone = eddy::fields::make_field("alone", p.shape);
    ghosts.fill(exchanged);
    copy_owned_ghosts_nan(owned_only, alone, p.shape);
    eddy::solver::red_black_sweep(exchanged, rhs, level, 0, 1.2);
    ghosts.exchange(exchanged);
    eddy::solver::red_black_sweep(exchanged, rhs, level, 1, 1.2);
    eddy::solver::red_black_sweep(alone, rhs, level, 0, 1.2);
    eddy::solver::red_black_sweep(alone, rhs, level, 1, 1.2);
    const auto [difference, size] = setup.max_difference(alone, exchanged);
    EXPECT_GT(size, 0);
    EXPECT_EQ(difference, 0) << "faces " << static_cast<int>(faces[2]);
  }
}

TEST(RedBlack, OverRelaxationScalesTheGaussSeidelChange) {
  for (int dim : {2, 3}) {
    const eddy::Int3 cells = dim == 3 ? eddy::Int3{17, 12, 9} : eddy::Int3{23, 16, 1};
    PoissonSetup setup(MPI_COMM_WORLD, dim, cells, eddy::testing::face_variety(dim)[3]);
    const auto& p = setup.problem;
    const eddy::solver::PoissonLevel level{p.decomp, p.shape, p.spacing, p.faces};
    eddy::solver::GhostFiller ghosts(*setup.context, level, setup.halo_transport(), true);
    Field rhs = setup.field_from(source);
    Field start = setup.field_from(rough), plain = setup.field_from(rough), over = setup.field_from(rough);
    for (Field f : {start, plain, over}) ghosts.fill(f);
    // One colour reads only the other's old values: the over-relaxed change is omega times Gauss-Seidel's.
    const Real omega = 1.3;
    eddy::solver::red_black_sweep(plain, rhs, level, 0, 1);
    eddy::solver::red_black_sweep(over, rhs, level, 0, omega);
    Field expected = scaled_change(start, plain, omega);
    const auto [difference, size] = setup.max_difference(over, expected);
    EXPECT_LE(difference, 1e-13 * size) << "dim " << dim;
    const auto [change, unused] = setup.max_difference(plain, start);
    EXPECT_GT(change, 0.1 * size) << "dim " << dim;
  }
}
