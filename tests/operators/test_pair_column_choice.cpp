// The pair loops' column length, chosen by timing: the rule that picks it (on the test's own clock), the setting it
// makes, which the reductions and the restriction do not follow, and the loops giving the same values bit for bit at
// every length a run may choose.
#include "core/error.hpp"
#include "grid/decomposition.hpp"
#include "grid/pair_columns.hpp"
#include "operators/divergence.hpp"
#include "solver/pair_column_choice.hpp"
#include "solver/poisson_kernels.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Random.hpp>

#include <mpi.h>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::grid::kPairPlanes;
using eddy::solver::choose_column_length;

// A loop whose every call at a column length takes the next of that length's times on the test's clock.
struct TimedLoop {
  explicit TimedLoop(std::map<int, std::vector<double>> times) : seconds(std::move(times)) {}

  std::map<int, std::vector<double>> seconds;  // per column length, call by call (the last one repeats)
  double now = 0;
  std::vector<int> calls;  // the column length of each call

  eddy::solver::ColumnLengthChoice choose(int samples, double margin) {
    return choose_column_length(
        [this](int planes) {
          const auto& times = seconds.at(planes);
          const int made = static_cast<int>(std::count(calls.begin(), calls.end(), planes));
          now += times[std::min<std::size_t>(made, times.size() - 1)];
          calls.push_back(planes);
        },
        samples, margin, [this] { return now; });
  }
};

// Restores the process's column length when a test ends.
struct RestoreColumn {
  int planes = eddy::grid::longest_column();
  ~RestoreColumn() { eddy::grid::set_longest_column(planes); }
};

eddy::grid::Decomposition block_72_20_36() {
  eddy::grid::GlobalGrid g;
  g.dim = 3;
  g.cells = {72, 20, 36};
  g.length = {1.0, 0.75, 1.5};
  g.periodic = {true, true, true};
  return eddy::grid::decompose(g, MPI_COMM_WORLD);
}

Field random_field(const char* name, const eddy::fields::LocalShape& shape, int seed) {
  const Field f = eddy::fields::make_field(name, shape);
  Kokkos::Random_XorShift64_Pool<eddy::ExecSpace> pool(seed);
  Kokkos::fill_random(f, pool, Real(-1), Real(1));
  return f;
}

// Points where `a` and `b` differ in any bit.
long long differing_points(const Field& a, const Field& b) {
  long long count = 0;
  Kokkos::parallel_reduce(
      "test::differing_points", Kokkos::RangePolicy<eddy::ExecSpace>(0, static_cast<long long>(a.span())),
      KOKKOS_LAMBDA(long long p, long long& n) { n += a.data()[p] != b.data()[p]; }, count);
  return count;
}

}  // namespace

// Both lengths are run once untimed, then alternately `samples` times each; the shorter columns win only below
// (1 - margin) of the longer's shortest time.
TEST(PairColumnChoice, ShorterColumnsWinOnlyByTheMargin) {
  TimedLoop faster{{{kPairPlanes, {1.0}}, {kPairPlanes / 2, {0.95}}}};
  const auto chosen = faster.choose(3, 0.02);
  EXPECT_EQ(chosen.planes, kPairPlanes / 2);
  EXPECT_TRUE(chosen.timed);
  EXPECT_DOUBLE_EQ(chosen.long_seconds, 1.0);
  EXPECT_DOUBLE_EQ(chosen.short_seconds, 0.95);
  const int l = kPairPlanes, s = kPairPlanes / 2;
  EXPECT_EQ(faster.calls, (std::vector<int>{l, s, l, s, l, s, l, s}));

  TimedLoop within_margin{{{kPairPlanes, {1.0}}, {kPairPlanes / 2, {0.985}}}};
  EXPECT_EQ(within_margin.choose(3, 0.02).planes, kPairPlanes);
  TimedLoop slower{{{kPairPlanes, {1.0}}, {kPairPlanes / 2, {1.2}}}};
  EXPECT_EQ(slower.choose(2, 0.02).planes, kPairPlanes);
  TimedLoop no_margin{{{kPairPlanes, {1.0}}, {kPairPlanes / 2, {0.985}}}};
  EXPECT_EQ(no_margin.choose(2, 0).planes, kPairPlanes / 2);
}

// The shortest timed sample of each length counts: the untimed first calls and slow outliers do not.
TEST(PairColumnChoice, TheShortestTimedSampleCounts) {
  // The first call of each length (untimed) is slowest of all; then 8 planes 1.2, 1.0, 1.1 and 4 planes 0.93, 1.3,
  // 1.3: 0.93 against 1.0 wins by 7%.
  TimedLoop noisy{{{kPairPlanes, {9.0, 1.2, 1.0, 1.1}}, {kPairPlanes / 2, {0.1, 0.93, 1.3, 1.3}}}};
  const auto chosen = noisy.choose(3, 0.02);
  EXPECT_DOUBLE_EQ(chosen.long_seconds, 1.0);
  EXPECT_DOUBLE_EQ(chosen.short_seconds, 0.93);
  EXPECT_EQ(chosen.planes, kPairPlanes / 2);
  EXPECT_THROW(noisy.choose(0, 0.02), eddy::Error);
  EXPECT_THROW(noisy.choose(1, 1.0), eddy::Error);
}

TEST(PairColumnChoice, DescribesTheTimesOrWhyNoneWereTaken) {
  TimedLoop faster{{{kPairPlanes, {0.000867}}, {kPairPlanes / 2, {0.000785}}}};
  EXPECT_EQ(faster.choose(1, 0.02).describe(),
            "columns of " + std::to_string(kPairPlanes / 2) + " planes (timed: " + std::to_string(kPairPlanes) +
                " planes 0.867 ms, " + std::to_string(kPairPlanes / 2) + " planes 0.785 ms)");
  eddy::solver::ColumnLengthChoice kept;
  kept.planes = 16;
  kept.untimed_reason = "set by EDDY_PAIR_PLANES";
  EXPECT_EQ(kept.describe(), "columns of 16 planes (set by EDDY_PAIR_PLANES)");
}

// The chosen length governs the loops without sums; the reductions and the restriction's partial sums keep the
// configured length, so their sums add in the same order whatever was chosen. Odd or out-of-range lengths are
// refused.
TEST(PairColumnChoice, ReductionsAndTheRestrictionKeepTheConfiguredLength) {
  const RestoreColumn restore;
  eddy::solver::PoissonLevel coarse;
  coarse.decomp = block_72_20_36();
  coarse.shape = eddy::fields::local_shape(coarse.decomp, 1);
  const long long partials = eddy::solver::restriction_column_count(coarse);
  const int reduction = eddy::grid::longest_reduction_column();
  for (const int planes : {2, 4, 16}) {
    eddy::grid::set_longest_column(planes);
    EXPECT_EQ(eddy::grid::longest_column(), planes);
    EXPECT_EQ(eddy::grid::longest_reduction_column(), reduction);
    EXPECT_EQ(eddy::grid::longest_reduction_column(), std::min(2 * eddy::grid::configured_column(), 1024));
    EXPECT_EQ(eddy::solver::restriction_column_count(coarse), partials) << planes << " planes";
  }
  for (const int bad : {0, 3, -4, 2048}) {
    try {
      eddy::grid::set_longest_column(bad);
      ADD_FAILURE() << bad << " planes were accepted";
    } catch (const eddy::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad) + " planes"), std::string::npos) << e.what();
    }
  }
}

// Whatever length a run chooses, the Laplacian, the residual and the divergence by pairs write the same bits.
TEST(PairColumnChoice, PairLoopsGiveTheSameBitsAtEveryLength) {
  const RestoreColumn restore;
  const auto decomp = block_72_20_36();
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const auto grid = eddy::operators::make_staggered_grid(decomp, shape);
  const auto w = eddy::solver::stencil_weights(grid.spacing, 3);
  const Field phi = random_field("phi", shape, 3 + decomp.rank), rhs = random_field("rhs", shape, 5 + decomp.rank);
  auto state = eddy::fields::FlowState::allocate(shape);
  for (const Field& f : {state.u, state.v, state.w}) Kokkos::deep_copy(f, random_field("velocity", shape, 7));
  ASSERT_TRUE(eddy::grid::fits_cell_pairs(shape, {phi, rhs, state.u, state.v, state.w}));

  struct Outputs {
    Field apply, residual, divergence;
  };
  const auto run_at = [&](int planes) {
    eddy::grid::set_longest_column(planes);
    Outputs out{random_field("apply", shape, 11), random_field("residual", shape, 13),
                random_field("divergence", shape, 17)};
    eddy::solver::laplacian_by_pairs(out.apply, phi, Field(), shape, w);
    eddy::solver::laplacian_by_pairs(out.residual, phi, rhs, shape, w);
    eddy::operators::compute_divergence_by_pairs(state, out.divergence, grid, 0.5);
    return out;
  };
  const Outputs reference = run_at(kPairPlanes);
  for (const int planes : {2, kPairPlanes / 2, 2 * kPairPlanes}) {
    const Outputs other = run_at(planes);
    EXPECT_EQ(differing_points(reference.apply, other.apply), 0) << planes << " planes";
    EXPECT_EQ(differing_points(reference.residual, other.residual), 0) << planes << " planes";
    EXPECT_EQ(differing_points(reference.divergence, other.divergence), 0) << planes << " planes";
  }
}

// The choice is made only where the Laplacian runs by pairs (GPU builds); a block too small for whole columns of
// kPairPlanes planes, or a length set by EDDY_PAIR_PLANES, is kept untimed.
TEST(PairColumnChoice, SmallBlocksKeepTheLengthUntimed) {
  const RestoreColumn restore;
  const auto decomp = block_72_20_36();
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const Field phi = random_field("phi", shape, 3), out = eddy::fields::make_field("out", shape);
  const auto w = eddy::solver::stencil_weights({0.1, 0.1, 0.1}, 3);
  const auto choice = eddy::solver::choose_pair_columns(out, phi, shape, w);
  ASSERT_EQ(choice.has_value(), eddy::grid::use_cell_pairs(shape, {out, phi}));
  if (!choice) return;
  EXPECT_FALSE(choice->timed);
  EXPECT_EQ(choice->planes, eddy::grid::longest_column());
  EXPECT_EQ(choice->untimed_reason, std::getenv("EDDY_PAIR_PLANES") != nullptr
                                        ? "set by EDDY_PAIR_PLANES"
                                        : "the grid is too small for whole columns");
}

// A block whose columns of kPairPlanes fill the device (an H100 or an H200 holds 270336 threads) is timed at both
// lengths on GPU builds, and the length chosen is the one the pair loops then take. Each rank holds the whole block.
TEST(PairColumnChoice, LargeBlocksAreTimedAndTheChoiceIsSet) {
  const RestoreColumn restore;
  eddy::grid::GlobalGrid g;
  g.dim = 3;
  g.cells = {256, 128, 160};
  g.periodic = {true, true, true};
  const auto decomp = eddy::grid::decompose(g, MPI_COMM_SELF);
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const Field phi = eddy::fields::make_field("phi", shape), out = eddy::fields::make_field("out", shape);
  const auto choice = eddy::solver::choose_pair_columns(out, phi, shape, eddy::solver::stencil_weights({1, 1, 1}, 3));
  ASSERT_EQ(choice.has_value(), eddy::grid::use_cell_pairs(shape, {out, phi}));
  if (!choice || std::getenv("EDDY_PAIR_PLANES") != nullptr) return;
  if (eddy::grid::column_planes(128, 128, 160, eddy::grid::resident_threads(), kPairPlanes) != kPairPlanes) {
    EXPECT_FALSE(choice->timed) << "a device that holds " << eddy::grid::resident_threads() << " threads";
    return;
  }
  EXPECT_TRUE(choice->timed);
  EXPECT_GT(choice->long_seconds, 0);
  EXPECT_GT(choice->short_seconds, 0);
  EXPECT_TRUE(choice->planes == kPairPlanes || choice->planes == kPairPlanes / 2) << choice->planes;
  EXPECT_EQ(eddy::grid::longest_column(), choice->planes);
  EXPECT_EQ(choice->planes == kPairPlanes / 2,
            choice->short_seconds < (1 - eddy::solver::kShorterColumnMargin) * choice->long_seconds)
      << choice->describe();
}
