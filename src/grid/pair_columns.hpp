#pragma once
// The GPU loop of the bandwidth-bound stencils: each thread marches a column of aligned cell pairs (i, i + 1) up z,
// keeping its z neighbours in registers; consecutive threads take a tile of kPairTile pairs by kPairRows rows of a
// plane, one tile per block, so the x and y neighbours of a pair are values the tile's other threads have just loaded
// (L1 hits). Loads and stores of a pair are one 16-byte access, which brought the stencils nearer their copy floors
// than one thread per cell (`eddy bench stencil`, tests/perf/RESULTS.md).
#include "core/error.hpp"
#include "grid/local_shape.hpp"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

namespace eddy::grid {

constexpr int kPairTile = 32, kPairRows = 8, kPairPlanes = 8;

/// The threads the device holds resident (ExecSpace().concurrency()).
long long resident_threads();

/// The longest column of a reduction over pair columns of a block whose other pair loops march `pair_planes`: twice
/// as many (at most 1024), which keeps a reduction's partial sums few (tests/perf/RESULTS.md).
constexpr int reduction_planes(int pair_planes) { return 2 * pair_planes < 1024 ? 2 * pair_planes : 1024; }

/// Planes per thread of a pair loop over `pairs` x `rows` x `planes`: `longest`, halved down to 2 while the loop would
/// start fewer threads than `resident` (small multigrid levels: columns of eight planes left most of the GPU idle, each
/// thread marching them one after the other). Always even.
int column_planes(int pairs, int rows, int planes, long long resident, int longest);

/// One thread's work: cells (i, i + 1) of row j (i even) for planes [k0, k1), and which of the two lie in the box.
struct PairColumn {
  int i = 0, j = 0, k0 = 0, k1 = 0;
  bool first_in = false, second_in = false;
};

/// Whether `fields` (unallocated ones skipped) can be marched by pairs: rows of even length, and every field unpadded,
/// of `shape` and aligned to pairs of values.
bool fits_cell_pairs(const LocalShape& shape, std::initializer_list<Field> fields);

/// fits_cell_pairs on GPU builds, where the pair loop is the faster form; false on CPUs.
bool use_cell_pairs(const LocalShape& shape, std::initializer_list<Field> fields);

/// The pair of values at flat offset `p` (even) of `f`.
KOKKOS_FORCEINLINE_FUNCTION RealPair load_pair(const Real* f, int p) {
  return *reinterpret_cast<const RealPair*>(f + p);
}

/// Stores the cells of `value` at flat offset `p` of `f` that lie in the column's box.
KOKKOS_FORCEINLINE_FUNCTION void store_pair(Real* f, int p, const RealPair& value, bool first_in, bool second_in) {
  if (first_in && second_in) {
    *reinterpret_cast<RealPair*>(f + p) = value;
  } else if (first_in) {
    f[p] = value.even;
  } else if (second_in) {
    f[p + 1] = value.odd;
  }
}

// Each kernel earns the hint by measurement: it pays in the prolongation's in-place sum and slowed the Laplacian
// (tests/perf/RESULTS.md).
/// store_pair with an evict-first hint on CUDA devices.
KOKKOS_FORCEINLINE_FUNCTION void store_pair_evict_first(Real* f, int p, const RealPair& value, bool first_in,
                                                        bool second_in) {
#if defined(__CUDA_ARCH__)
  static_assert(std::is_same_v<Real, double>, "the CUDA store hints below take doubles");
  if (first_in && second_in) {
    __stcs(reinterpret_cast<double2*>(f + p), make_double2(value.even, value.odd));
  } else if (first_in) {
    __stcs(f + p, value.even);
  } else if (second_in) {
    __stcs(f + p + 1, value.odd);
  }
#else
  store_pair(f, p, value, first_in, second_in);
#endif
}

/// How the threads of a pair loop map onto the columns of a box [lo, hi) of view indices.
struct PairTiling {
  int lo_pair = 0, hi_pair = -1, x0 = 0, x1 = 0, y0 = 0, y1 = 0, z0 = 0, z1 = 0, tiles_x = 0, tiles_y = 0;
  int planes = kPairPlanes;  // per thread (column_planes)
  int threads = 0;

  /// Thread t's column; false for a thread beyond the box.
  KOKKOS_INLINE_FUNCTION bool column(int t, PairColumn& c) const {
    constexpr int tile_threads = kPairTile * kPairRows;
    const int lane = t % tile_threads, tile = t / tile_threads, rest = tile / tiles_x;
    const int pair = lo_pair + (tile % tiles_x) * kPairTile + lane % kPairTile;
    c.j = y0 + (rest % tiles_y) * kPairRows + lane / kPairTile;
    if (pair > hi_pair || c.j >= y1) return false;
    c.i = 2 * pair;
    c.k0 = z0 + (rest / tiles_y) * planes;
    c.k1 = c.k0 + planes < z1 ? c.k0 + planes : z1;
    c.first_in = c.i >= x0 && c.i < x1;
    c.second_in = c.i + 1 >= x0 && c.i + 1 < x1;
    return true;
  }
};

/// The tiling of [lo, hi) (no threads for an empty box), columns of column_planes(..., resident, longest) planes;
/// throws when it needs 2^31 threads or more.
PairTiling pair_tiling(const std::string& label, Int3 lo, Int3 hi, long long resident, int longest);

/// The 1D policy of a pair loop: one tile of kPairTile x kPairRows threads per block, at least MinBlocks blocks
/// resident per multiprocessor (0: as many as the registers allow).
template <int MinBlocks>
using PairPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight,
                                       Kokkos::LaunchBounds<kPairTile * kPairRows, MinBlocks>>;

/// Runs march(PairColumn) over the box [lo, hi) of view indices, a column of up to column_planes(..., longest) planes
/// per thread (the block's LocalShape::pair_planes), with at least MinBlocks blocks resident per multiprocessor. The
/// caller checks fits_cell_pairs.
template <int MinBlocks = 0, class March>
void for_each_pair_column(const char* label, Int3 lo, Int3 hi, int longest, const March& march) {
  const PairTiling tiling = pair_tiling(label, lo, hi, resident_threads(), longest);
  if (tiling.threads == 0) return;
  Kokkos::parallel_for(
      label, PairPolicy<MinBlocks>(0, tiling.threads), KOKKOS_LAMBDA(int t) {
        PairColumn c;
        if (tiling.column(t, c)) march(c);
      });
}

/// Device memory for the per-tile values of reduce_over_pair_columns, allocated once by the block that reduces.
using PairReductionScratch = Kokkos::View<RealPair*, MemSpace>;
/// Scratch for every reduction over a box within a view of `extent`, with up to kPairScratchValue bytes a tile (empty
/// on CPUs, whose reductions need none).
PairReductionScratch make_pair_reduction_scratch(Int3 extent);
/// The largest per-tile value make_pair_reduction_scratch holds room for.
constexpr std::size_t kPairScratchValue = 64;

/// Reduces march(PairColumn, value) over the box [lo, hi) as for_each_pair_column, with columns of up to `longest`
/// planes (reduction_planes of the block's), into `result` (a Kokkos reducer), the tiles' values kept in `scratch`.
/// On GPUs one team per tile reduces its columns' values and writes the tile's, and a second pass reduces those: the
/// teams start in the order of for_each_pair_column's blocks, so the tiles in flight are neighbours and share the rows
/// between them in L2. A reduction over a range policy hands each block a run of consecutive tiles instead, so that
/// the tiles in flight lie far apart.
template <int MinBlocks = 0, class March, class Result>
void reduce_over_pair_columns(const char* label, Int3 lo, Int3 hi, int longest, const PairReductionScratch& scratch,
                              const March& march, Result&& result) {
  const PairTiling tiling = pair_tiling(label, lo, hi, resident_threads(), longest);
  using Reducer = std::decay_t<Result>;
  using Value = typename Reducer::value_type;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  constexpr int tile_threads = kPairTile * kPairRows;
  const int tiles = tiling.threads / tile_threads;
  static_assert(sizeof(Value) <= kPairScratchValue, "reduce_over_pair_columns: a tile's value outgrows the scratch");
  require(static_cast<std::size_t>(tiles) * sizeof(Value) <= scratch.extent(0) * sizeof(RealPair),
          std::string(label) + ": the pair reduction's scratch is smaller than its tiles' values");
  Value* tile_values = reinterpret_cast<Value*>(scratch.data());
  using Teams =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<tile_threads, MinBlocks>>;
  Kokkos::parallel_for(
      label, Teams(tiles, tile_threads), KOKKOS_LAMBDA(const typename Teams::member_type& team) {
        Value value;
        Reducer(value).init(value);
        PairColumn c;
        if (tiling.column(team.league_rank() * tile_threads + team.team_rank(), c)) march(c, value);
        team.team_reduce(Reducer(value));
        if (team.team_rank() == 0) tile_values[team.league_rank()] = value;
      });
  Kokkos::parallel_reduce(
      "pair_columns::tile_values", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>(0, tiles),
      KOKKOS_LAMBDA(int n, Value& value) { Reducer(value).join(value, tile_values[n]); }, std::forward<Result>(result));
#else
  (void)scratch;
  Kokkos::parallel_reduce(
      label, PairPolicy<MinBlocks>(0, tiling.threads),
      KOKKOS_LAMBDA(int t, Value& value) {
        PairColumn c;
        if (tiling.column(t, c)) march(c, value);
      },
      std::forward<Result>(result));
#endif
}

}  // namespace eddy::grid
