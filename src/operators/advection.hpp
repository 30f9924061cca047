#pragma once
// Advection term of the momentum equation on every face the momentum equation advances.
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// Writes -div(u u_i) of each component into `rhs` (central or upwind fluxes); velocity ghosts must be valid.
void compute_advection(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                       config::AdvectionScheme scheme);

}  // namespace eddy::operators
