#pragma once
// Reads the deck tree into a Deck: every key known, every value of the right type and shape; defaults from deck.hpp.
// Value ranges and cross-section consistency are checked afterwards by validate().
#include "config/deck.hpp"
#include "config/source_map.hpp"

#include <yaml-cpp/yaml.h>

namespace eddy::config {

/// Fills a Deck from the YAML tree `root`, recording in `where` the line of every key; throws eddy::Error.
Deck parse_deck(const YAML::Node& root, SourceMap& where);

}  // namespace eddy::config
