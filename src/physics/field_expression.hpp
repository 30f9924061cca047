#pragma once
// Fields from deck expressions (config/expression.hpp): the owned points of a rank's block evaluated on the host at
// their positions in the domain and copied to the device, for initial conditions.
#include "config/expression.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <mpi.h>
#include <string>

namespace eddy::physics {

/// Where fill_from_expression evaluates: the faces of the velocity component 0, 1 or 2, or the cell centres.
inline constexpr int cell_centres = 3;

/// f on the owned points from `expression` at time t, at the faces of component `at` or at the cell centres; f's
/// ghosts are left alone. Collective: where the value is not finite somewhere, every rank throws one eddy::Error
/// naming `key` and the first such point.
void fill_from_expression(const config::Expression& expression, const std::string& key,
                          const grid::Decomposition& decomp, Field f, int at, int ghost, MPI_Comm comm, double t = 0);

}  // namespace eddy::physics
