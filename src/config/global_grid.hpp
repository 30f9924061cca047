#pragma once
// From the deck's domain and boundary sections to the global grid the rest of eddy works on.
#include "config/deck.hpp"
#include "grid/grid.hpp"

namespace eddy::config {

/// The global grid of a deck: cells, extent, origin, an axis periodic where both its faces are (2D: one periodic z
/// cell); throws eddy::Error where only one face of an axis is periodic.
grid::GlobalGrid global_grid(const Deck& deck);

}  // namespace eddy::config
