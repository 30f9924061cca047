#pragma once
// The coupled-physics part of the printed deck: buoyancy keys of `physics`, and the `scalars`, `bodies`, `probes`
// and `lines` lists.
#include "config/deck.hpp"

#include <string>

namespace eddy::config {

/// The buoyancy lines of the physics section (indented two spaces, one key per line).
std::string buoyancy_yaml(const Deck& deck);

/// The `scalars`, `bodies`, `probes` and `lines` sections (empty text when the deck has none).
std::string scalars_and_bodies_yaml(const Deck& deck);

}  // namespace eddy::config
