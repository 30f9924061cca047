#pragma once
// Physical boundary conditions of the pressure (and of any Poisson unknown) on the first ghost layer:
//   neumann   ghost = interior   (zero normal gradient at the face)
//   dirichlet ghost = -interior  (zero value on the face)
//   periodic  left to the halo exchange, like every face shared with a neighbour rank.
// Faces are done axis by axis over the full extent of the other axes (ghosts included), after the halo exchange,
// so edge and corner ghosts end up consistent too (multigrid prolongation reads them).
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <array>

namespace eddy::solver {

enum class PressureBoundary { neumann, dirichlet, periodic };

/// Face conditions in the order x_low, x_high, y_low, y_high, z_low, z_high (index 2 * axis + side).
using PressureFaces = std::array<PressureBoundary, 6>;

/// Sets the first ghost layer of `phi` on every physical (non-periodic, no neighbour rank) face of this rank's block.
void apply_pressure_ghosts(Field phi, const fields::LocalShape& shape, const grid::Decomposition& decomp,
                           const PressureFaces& faces);

}  // namespace eddy::solver
