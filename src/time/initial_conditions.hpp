#pragma once
// Initial velocity fields on the owned faces (the simulation projects them afterwards so they are divergence-free):
//   rest          u = 0
//   uniform       u = deck velocity
//   taylor_green  2D: u = A sin x cos y, v = -A cos x sin y; 3D: u = A sin x cos y cos z, v = -A cos x sin y cos z,
//                 w = 0; coordinates measured from the domain origin (a [0, 2 pi) box gives the classic vortex)
//   random        base velocity + A * h, h in [-1, 1] a counter-based hash of (global face index, seed, component),
//                 so the field is the same on any number of ranks
//   expression    u, v (, w) from expressions of x, y, z at each face (config/expression.hpp), t = 0, evaluated on
//                 the host; the pressure's expression at the cell centres warm-starts the first solve
#include "config/deck.hpp"
#include "core/counter_hash.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <mpi.h>

namespace eddy::time {

/// Fills the owned faces of u, v, w with the deck's initial condition (pressure set to zero). Collective: an
/// expression that is not finite somewhere is refused by every rank with the first such point.
void set_initial_velocity(const config::Deck& deck, const grid::Decomposition& decomp, const fields::FlowState& state,
                          MPI_Comm comm);

/// The owned cells of p from the deck's initial pressure expression (type `expression`; collective like
/// set_initial_velocity); zero otherwise.
void set_initial_pressure(const config::Deck& deck, const grid::Decomposition& decomp, const fields::FlowState& state,
                          MPI_Comm comm);

}  // namespace eddy::time
