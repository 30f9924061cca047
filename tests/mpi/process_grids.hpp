#pragma once
// Every process grid of a rank count, for tests that must hold on every split of the axes.
#include "core/types.hpp"

#include <vector>

namespace eddy::test {

/// All (px, py, pz) with px * py * pz = ranks; pz = 1 when `dim` is 2.
inline std::vector<Int3> process_grids(int ranks, int dim) {
  std::vector<Int3> grids;
  for (int px = 1; px <= ranks; ++px) {
    for (int py = 1; px * py <= ranks; ++py) {
      if (ranks % (px * py)) continue;
      const int pz = ranks / (px * py);
      if (dim == 2 && pz != 1) continue;
      grids.push_back({px, py, pz});
    }
  }
  return grids;
}

}  // namespace eddy::test
