#pragma once
// The explicit tendency of the momentum equation on every face it advances: advection -div(u u_i) (central or upwind
// fluxes, operators/advection_stencil.hpp) and diffusion nu Laplacian(u_i) (second-order central), stored for all
// components by one kernel. Runs without momentum sources apply the same expression (operators/momentum_tendency.hpp)
// inside the Runge-Kutta stage instead (time/momentum_stage.hpp).
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// Writes -div(u u_i) + nu Laplacian(u_i) of each component into `rhs`; velocity ghosts must be valid.
void compute_momentum_tendency(const fields::FlowState& state, const fields::FaceVector& rhs, const StaggeredGrid& grid,
                               config::AdvectionScheme scheme, Real viscosity);

}  // namespace eddy::operators
