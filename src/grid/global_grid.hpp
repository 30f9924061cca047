#pragma once
// From the deck's domain and boundary sections to the global grid the rest of eddy works on.
#include "config/deck.hpp"
#include "grid/grid.hpp"

#include <vector>

namespace eddy::grid {

/// The global grid of a deck: cells, extent, origin, an axis periodic where both its faces are (2D: one periodic z
/// cell), the face coordinates of stretched axes; throws eddy::Error where only one face of an axis is periodic.
GlobalGrid global_grid(const config::Deck& deck);

/// The cells + 1 face coordinates of a stretched axis of the domain: as given, or by a tanh map clustering the cells
/// towards both ends (x = (1 + tanh(b (2s - 1)) / tanh(b)) / 2 of s = n / cells), the low end
/// (1 + tanh(b (s - 1)) / tanh(b)) or the high end (tanh(b s) / tanh(b)), scaled to the axis, with the factor b given
/// or found from the width of the first cell.
std::vector<double> stretched_faces(const config::DomainConfig& domain, int axis);

}  // namespace eddy::grid
