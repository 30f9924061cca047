#pragma once
// Initial scalar fields on the owned cells: uniform, linear along an axis, or random, each plus an optional
// perturbation amplitude * h with h in [-1, 1] hashed from the global cell index (the same on any rank count); or an
// expression of x, y, z and the deck's constants at the cell centres (physics/field_expression.hpp).
#include "config/deck.hpp"
#include "config/expression.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <mpi.h>
#include <string>

namespace eddy::physics {

/// Fills the owned cells of `field` with the deck's initial condition of `scalar` (the deck's entry `path`), whose
/// expression may use `constants`. Collective where the condition is an expression (a value that is not finite is
/// refused on every rank).
void set_initial_scalar(const config::ScalarConfig& scalar, const std::string& path, const config::Constants& constants,
                        const grid::Decomposition& decomp, const Field& field, int ghost, MPI_Comm comm);

}  // namespace eddy::physics
