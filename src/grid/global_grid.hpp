#pragma once
// From the deck's domain and boundary sections to the global grid the rest of eddy works on.
#include "config/deck.hpp"
#include "grid/grid.hpp"

namespace eddy::grid {

/// The global grid of a deck: cells, extent, origin, an axis periodic where both its faces are (2D: one periodic z
/// cell); throws eddy::Error where only one face of an axis is periodic.
GlobalGrid global_grid(const config::Deck& deck);

}  // namespace eddy::grid
