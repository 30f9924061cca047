#include "config/global_grid.hpp"

namespace eddy::config {

grid::GlobalGrid global_grid(const Deck& deck) {
  grid::GlobalGrid grid;
  grid.dim = deck.domain.dimensions;
  for (int a = 0; a < 3; ++a) {
    grid.cells[a] = deck.domain.cells[a];
    grid.length[a] = deck.domain.length[a];
    grid.origin[a] = deck.domain.origin[a];
    grid.periodic[a] = deck.boundary.face(a, 0).type == BoundaryType::periodic &&
                       deck.boundary.face(a, 1).type == BoundaryType::periodic;
  }
  if (grid.dim == 2) grid.periodic[2] = true;
  return grid;
}

}  // namespace eddy::config
