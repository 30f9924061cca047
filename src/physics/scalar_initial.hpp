#pragma once
// Initial scalar fields on the owned cells: uniform, linear along an axis, or random, each plus an optional
// perturbation amplitude * h with h in [-1, 1] hashed from the global cell index (the same on any rank count).
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

namespace eddy::physics {

/// Fills the owned cells of `field` with the deck's initial condition of `scalar`.
void set_initial_scalar(const config::ScalarConfig& scalar, const grid::Decomposition& decomp, const Field& field,
                        int ghost);

}  // namespace eddy::physics
