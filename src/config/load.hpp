#pragma once
// The one entry point from a deck file (or text) to a resolved, validated Deck.
#include "config/deck.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace eddy::config {

/// Reads the deck at `path`, applies `--set key.path=value` overrides, fills defaults and validates it;
/// throws eddy::Error with one message naming the key, its line and what is allowed.
Deck load(const std::string& path, const std::vector<std::string>& overrides = {});

/// Same, for deck text; `source_name` names it in messages and becomes Deck::source.
Deck load_text(std::string_view yaml, const std::string& source_name, const std::vector<std::string>& overrides = {});

/// The default deck (inputs/cavity2d_re100.yaml, compiled in), resolved with `overrides`.
Deck load_default(const std::vector<std::string>& overrides = {});

}  // namespace eddy::config
