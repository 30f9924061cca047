#include "grid/pair_columns.hpp"

#include <cstdint>

namespace eddy::grid {

bool fits_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
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

bool use_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return fits_cell_pairs(shape, fields);
#else
  (void)shape;
  (void)fields;
  return false;
#endif
}

}  // namespace eddy::grid
