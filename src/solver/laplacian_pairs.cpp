#include "core/error.hpp"
#include "solver/laplacian.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace eddy::solver {
namespace {

// Each thread marches a column of kColumnCells cell pairs up z, its z neighbours in registers; consecutive threads
// take a tile of kTilePairs pairs by kTileRows rows of a plane, one tile per block, so the y and x neighbours of a pair
// are values the tile's other threads have just loaded (L1 hits). On an H200 this ran the Laplacian apply at
// 0.82-0.84 of a same-run copy of pairs of values, against 0.74-0.76 for one thread per pair of the owned span and
// 0.64-0.66 for one per cell; without the launch bounds and with a run-time test for the z terms, 0.74
// (`eddy bench stencil`, tests/perf/RESULTS.md).
constexpr int kTilePairs = 32, kTileRows = 8, kColumnCells = 8;

bool aligned_for_pairs(const Real* data) { return reinterpret_cast<std::uintptr_t>(data) % sizeof(RealPair) == 0; }

}  // namespace

bool fits_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
  if (shape.extent(0) % 2 != 0) return false;
  for (const Field& f : fields) {
    if (f.data() == nullptr) continue;
    const bool unpadded_shape =
        static_cast<int>(f.extent(0)) == shape.extent(0) && static_cast<int>(f.extent(1)) == shape.extent(1) &&
        static_cast<int>(f.extent(2)) == shape.extent(2) && static_cast<int>(f.stride(1)) == shape.extent(0);
    if (!unpadded_shape || !aligned_for_pairs(f.data())) return false;
  }
  return true;
}

bool use_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return fits_cell_pairs(shape, fields);
#else
  (void)shape;
  (void)fields;
  return false;
#endif
}

namespace {

/// laplacian_by_pairs with the z terms (3D) or without (2D, whose z ghosts the stencil never reads).
template <bool HasZ>
void laplacian_columns(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                       const StencilWeights& w) {
  const int g = shape.ghost, nx = shape.cells[0], ny = shape.cells[1], nz = shape.cells[2];
  const int sy = shape.extent(0), sz = sy * shape.extent(1), top = shape.extent(2) - 1;
  const int lo_pair = g / 2, hi_pair = (g + nx - 1) / 2;
  const int tiles_x = (hi_pair - lo_pair + kTilePairs) / kTilePairs, tiles_y = (ny + kTileRows - 1) / kTileRows;
  const int chunks = (nz + kColumnCells - 1) / kColumnCells;
  constexpr int tile_threads = kTilePairs * kTileRows;
  const long long threads = static_cast<long long>(tiles_x) * tiles_y * chunks * tile_threads;
  require(threads < std::numeric_limits<int>::max(),
          "laplacian_by_pairs: " + std::to_string(threads) + " threads are beyond 2^31: use more ranks");
  const Real* __restrict__ phi = phi_field.data();
  const Real* __restrict__ rhs = rhs_field.data();
  Real* __restrict__ out = out_field.data();
  using Policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<tile_threads>>;
  Kokkos::parallel_for(
      "poisson::laplacian_by_pairs", Policy(0, static_cast<int>(threads)), KOKKOS_LAMBDA(int t) {
        const int lane = t % tile_threads, tile = t / tile_threads, rest = tile / tiles_x;
        const int pair = lo_pair + (tile % tiles_x) * kTilePairs + lane % kTilePairs;
        const int j = g + (rest % tiles_y) * kTileRows + lane / kTilePairs;
        if (pair > hi_pair || j >= g + ny) return;
        const int i = 2 * pair;
        const bool even_owned = i >= g && i < g + nx, odd_owned = i + 1 >= g && i + 1 < g + nx;
        const int k0 = g + (rest / tiles_y) * kColumnCells,
                  k1 = k0 + kColumnCells < g + nz ? k0 + kColumnCells : g + nz;
        const int column = i + sy * j;
        const auto pair_at = [&](int o) { return *reinterpret_cast<const RealPair*>(phi + o); };
        RealPair below{}, centre = pair_at(column + sz * k0), above{};
        if (HasZ) {
          below = pair_at(column + sz * (k0 - 1));
          above = pair_at(column + sz * (k0 + 1));
        }
        for (int k = k0; k < k1; ++k) {
          RealPair next{};
          if (HasZ) next = pair_at(column + sz * (k + 2 < top ? k + 2 : top));  // in flight a plane early
          const int p = column + sz * k;
          const RealPair south = pair_at(p - sy), north = pair_at(p + sy);
          const Real west = phi[p - 1], east = phi[p + 2];
          RealPair r;
          r.even = w.x * (west + centre.odd) + w.y * (south.even + north.even) + w.diagonal() * centre.even;
          r.odd = w.x * (centre.even + east) + w.y * (south.odd + north.odd) + w.diagonal() * centre.odd;
          if (HasZ) {
            r.even += w.z * (below.even + above.even);
            r.odd += w.z * (below.odd + above.odd);
          }
          if (rhs != nullptr) {
            const RealPair b = *reinterpret_cast<const RealPair*>(rhs + p);
            r.even = b.even - r.even;
            r.odd = b.odd - r.odd;
          }
          if (even_owned && odd_owned) {
            *reinterpret_cast<RealPair*>(out + p) = r;
          } else if (even_owned) {
            out[p] = r.even;
          } else if (odd_owned) {
            out[p + 1] = r.odd;
          }
          if (HasZ) {
            below = centre;
            centre = above;
            above = next;
          }
        }
      });
}

}  // namespace

void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w) {
  require(fits_cell_pairs(shape, {out, phi, rhs}),
          "laplacian_by_pairs: rows of odd length or fields not aligned to pairs of values");
  if (w.z != 0) {
    laplacian_columns<true>(out, phi, rhs, shape, w);
  } else {
    laplacian_columns<false>(out, phi, rhs, shape, w);
  }
}

}  // namespace eddy::solver
