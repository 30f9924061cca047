#include "grid/global_grid.hpp"

#include "core/error.hpp"

#include <string>

namespace eddy::grid {

GlobalGrid global_grid(const config::Deck& deck) {
  GlobalGrid grid;
  grid.dim = deck.domain.dimensions;
  for (int a = 0; a < 3; ++a) {
    grid.cells[a] = deck.domain.cells[a];
    grid.length[a] = deck.domain.length[a];
    grid.origin[a] = deck.domain.origin[a];
    const bool low = deck.boundary.face(a, 0).type == config::BoundaryType::periodic;
    const bool high = deck.boundary.face(a, 1).type == config::BoundaryType::periodic;
    require(low == high, "boundary: axis " + std::string(1, "xyz"[a]) + " is periodic on one side only");
    grid.periodic[a] = low;
  }
  if (grid.dim == 2) {
    grid.cells[2] = 1;
    grid.periodic[2] = true;
  }
  return grid;
}

}  // namespace eddy::grid
