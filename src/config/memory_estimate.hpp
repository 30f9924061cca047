#pragma once
// How much device memory one rank needs for a deck: printed by `eddy check` before a run is queued.
#include "config/deck.hpp"
#include "core/types.hpp"

#include <cstddef>

namespace eddy::config {

/// Estimated bytes of device memory for a rank owning `local_cells` with `ghost_layers` ghost layers per side.
std::size_t estimate_bytes_per_rank(const Deck& deck, const Int3& local_cells, int ghost_layers = 1);

}  // namespace eddy::config
