#pragma once
// Range and consistency checks of the coupled physics: scalars, buoyancy and immersed bodies.
#include "config/deck.hpp"
#include "config/source_map.hpp"

namespace eddy::config {

/// Throws eddy::Error, located by `where`, for the first bad scalar, buoyancy or body setting.
void validate_physics(const Deck& deck, const SourceMap& where);

}  // namespace eddy::config
