#pragma once
// Where a rank's block lies in the global datasets of the grid, in HDF5 order (z, y, x: slowest axis first).
#include "grid/decomposition.hpp"

#include <hdf5.h>

#include <vector>

namespace eddy::io {

struct BlockLayout {
  std::vector<hsize_t> global_dims, offset, count;
};

/// The global dataset shape, and this rank's offset and extent in it.
inline BlockLayout block_layout(const grid::Decomposition& decomp) {
  const auto& n = decomp.global.cells;
  const auto& o = decomp.offset;
  const auto& c = decomp.local_cells;
  return {{hsize_t(n[2]), hsize_t(n[1]), hsize_t(n[0])},
          {hsize_t(o[2]), hsize_t(o[1]), hsize_t(o[0])},
          {hsize_t(c[2]), hsize_t(c[1]), hsize_t(c[0])}};
}

}  // namespace eddy::io
