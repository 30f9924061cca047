#pragma once
// Boussinesq buoyancy: the body force f = -beta_g (T - T_ref) g_hat on the momentum faces, with T averaged from
// the two cells that share each face and g_hat the unit vector along gravity.
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::physics {

/// Adds the buoyancy force of `temperature` (ghosts valid) to the momentum right-hand side `rhs`.
void add_buoyancy(const Field& temperature, const fields::FaceVector& rhs, const operators::StaggeredGrid& grid,
                  const config::PhysicsConfig& physics);

}  // namespace eddy::physics
