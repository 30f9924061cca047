#pragma once
// The GPU loop of the bandwidth-bound stencils: each thread marches a column of aligned cell pairs (i, i + 1) up z,
// keeping its z neighbours in registers; consecutive threads take a tile of kPairTile pairs by kPairRows rows of a
// plane, one tile per block, so the x and y neighbours of a pair are values the tile's other threads have just loaded
// (L1 hits). Loads and stores of a pair are one 16-byte access. On an H200 the Laplacian apply ran at 0.82-0.84 of a
// same-run copy of pairs of values in this form, against 0.64-0.66 with one thread per cell (`eddy bench stencil`,
// tests/perf/RESULTS.md).
#include "core/error.hpp"
#include "fields/field.hpp"

#include <initializer_list>
#include <limits>
#include <string>

namespace eddy::grid {

constexpr int kPairTile = 32, kPairRows = 8, kPairPlanes = 8;

/// One thread's work: cells (i, i + 1) of row j (i even) for planes [k0, k1), and which of the two lie in the box.
struct PairColumn {
  int i, j, k0, k1;
  bool first_in, second_in;
};

/// Whether `fields` (unallocated ones skipped) can be marched by pairs: rows of even length, and every field unpadded,
/// of `shape` and aligned to pairs of values.
bool fits_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields);

/// fits_cell_pairs on GPU builds, where the pair loop is the faster form; false on CPUs.
bool use_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields);

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

/// Runs march(PairColumn) over the box [lo, hi) of view indices, a column of up to kPairPlanes planes per thread
/// (a box of fewer than 2^31 threads' worth of columns), with at least MinBlocks blocks resident per multiprocessor
/// (0: as many as the registers allow). The caller checks fits_cell_pairs for its fields.
template <int MinBlocks = 0, class March>
void for_each_pair_column(const char* label, Int3 lo, Int3 hi, const March& march) {
  if (hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]) return;
  const int lo_pair = lo[0] / 2, hi_pair = (hi[0] - 1) / 2;
  const int x0 = lo[0], x1 = hi[0], y0 = lo[1], y1 = hi[1], z0 = lo[2], z1 = hi[2];
  const int tiles_x = (hi_pair - lo_pair + kPairTile) / kPairTile, tiles_y = (y1 - y0 + kPairRows - 1) / kPairRows;
  const int chunks = (z1 - z0 + kPairPlanes - 1) / kPairPlanes;
  constexpr int tile_threads = kPairTile * kPairRows;
  const long long threads = static_cast<long long>(tiles_x) * tiles_y * chunks * tile_threads;
  require(threads < std::numeric_limits<int>::max(),
          std::string(label) + ": " + std::to_string(threads) + " threads are beyond 2^31: use more ranks");
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight,
                                     Kokkos::LaunchBounds<tile_threads, MinBlocks>>;
  Kokkos::parallel_for(
      label, Policy(0, static_cast<int>(threads)), KOKKOS_LAMBDA(int t) {
        const int lane = t % tile_threads, tile = t / tile_threads, rest = tile / tiles_x;
        const int pair = lo_pair + (tile % tiles_x) * kPairTile + lane % kPairTile;
        const int j = y0 + (rest % tiles_y) * kPairRows + lane / kPairTile;
        if (pair > hi_pair || j >= y1) return;
        const int i = 2 * pair;
        const int k0 = z0 + (rest / tiles_y) * kPairPlanes, k1 = k0 + kPairPlanes < z1 ? k0 + kPairPlanes : z1;
        march(PairColumn{i, j, k0, k1, i >= x0 && i < x1, i + 1 >= x0 && i + 1 < x1});
      });
}

}  // namespace eddy::grid
