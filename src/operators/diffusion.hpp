#pragma once
// Viscous term of the momentum equation: second-order central, explicit.
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// Adds nu * Laplacian(u_i) of each component to `rhs` on the momentum faces; velocity ghosts must be valid.
void add_diffusion(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                   Real viscosity);

}  // namespace eddy::operators
