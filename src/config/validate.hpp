#pragma once
// Range and consistency checks of a parsed deck, each failing with one message that names the key, where it was
// given, the value and what is allowed.
#include "config/deck.hpp"
#include "config/source_map.hpp"

namespace eddy::config {

/// Throws eddy::Error for the first out-of-range value or inconsistent combination; `where` locates the keys.
void validate(const Deck& deck, const SourceMap& where);

/// Same, for a deck built in code (messages name the keys without lines).
void validate(const Deck& deck);

}  // namespace eddy::config
