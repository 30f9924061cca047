#pragma once
// From the deck's domain and boundary sections to the global grid the rest of eddy works on.
#include "config/deck.hpp"
#include "grid/grid.hpp"

namespace eddy::config {

/// The global grid of a deck: cells, extent, origin, and an axis periodic where both its faces are periodic.
grid::GlobalGrid global_grid(const Deck& deck);

}  // namespace eddy::config
