#pragma once
// The resolved deck (every default filled in) as YAML that loads back to the same Deck.
#include "config/deck.hpp"

#include <string>

namespace eddy::config {

/// The deck as YAML in the documented layout; load_text(to_yaml(d), d.source) == d for any loaded deck.
std::string to_yaml(const Deck& deck);

/// The shortest text that reads back as exactly `value` (0.01, 1e-08, 64).
std::string format_real(double value);

/// The text as a YAML string that reads back unchanged: plain when it is a simple word or path, else double-quoted.
std::string yaml_string(const std::string& text);

}  // namespace eddy::config
