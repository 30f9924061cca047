#include "grid/pair_columns.hpp"

#include <cstdint>
#include <limits>

namespace eddy::grid {

bool fits_cell_pairs(const LocalShape& shape, std::initializer_list<Field> fields) {
  if (shape.extent(0) % 2 != 0) return false;
  for (const Field& f : fields) {
    if (f.data() == nullptr) continue;
    const bool unpadded_shape =
        static_cast<int>(f.extent(0)) == shape.extent(0) && static_cast<int>(f.extent(1)) == shape.extent(1) &&
        static_cast<int>(f.extent(2)) == shape.extent(2) && static_cast<int>(f.stride(1)) == shape.extent(0);
    const bool aligned = reinterpret_cast<std::uintptr_t>(f.data()) % sizeof(RealPair) == 0;
    if (!unpadded_shape || !aligned) return false;
  }
  return true;
}

long long resident_threads() {
  static const long long resident = ExecSpace().concurrency();
  return resident;
}

int column_planes(int pairs, int rows, int planes, long long resident, int longest) {
  const long long per_plane = static_cast<long long>((pairs + kPairTile - 1) / kPairTile) * kPairTile *
                              ((rows + kPairRows - 1) / kPairRows) * kPairRows;
  int chunk = longest;
  while (chunk > 2 && per_plane * ((planes + chunk - 1) / chunk) < resident) chunk /= 2;
  return chunk;
}

PairTiling pair_tiling(const std::string& label, Int3 lo, Int3 hi, long long resident, int longest) {
  PairTiling t;
  if (hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]) return t;
  t.lo_pair = lo[0] / 2;
  t.hi_pair = (hi[0] - 1) / 2;
  t.x0 = lo[0], t.x1 = hi[0], t.y0 = lo[1], t.y1 = hi[1], t.z0 = lo[2], t.z1 = hi[2];
  t.tiles_x = (t.hi_pair - t.lo_pair + kPairTile) / kPairTile;
  t.tiles_y = (hi[1] - lo[1] + kPairRows - 1) / kPairRows;
  t.planes = column_planes(t.hi_pair - t.lo_pair + 1, hi[1] - lo[1], hi[2] - lo[2], resident, longest);
  const int chunks = (hi[2] - lo[2] + t.planes - 1) / t.planes;
  const long long threads = static_cast<long long>(t.tiles_x) * t.tiles_y * chunks * kPairTile * kPairRows;
  require(threads < std::numeric_limits<int>::max(),
          label + ": " + std::to_string(threads) + " threads are beyond 2^31: use more ranks");
  t.threads = static_cast<int>(threads);
  return t;
}

PairReductionScratch make_pair_reduction_scratch(Int3 extent) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  // Columns of two planes, the shortest any reduction marches, give the most tiles.
  const PairTiling most = pair_tiling("pair reduction scratch", {0, 0, 0}, extent, resident_threads(), 2);
  const std::size_t tiles = std::max(most.threads / (kPairTile * kPairRows), 1);
  return PairReductionScratch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pair_columns::tile_values"),
                              tiles * (kPairScratchValue / sizeof(RealPair)));
#else
  (void)extent;
  return {};
#endif
}

bool use_cell_pairs(const LocalShape& shape, std::initializer_list<Field> fields) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return fits_cell_pairs(shape, fields);
#else
  (void)shape;
  (void)fields;
  return false;
#endif
}

}  // namespace eddy::grid
