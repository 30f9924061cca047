#pragma once
// Divergence of the face velocities at the cell centres: the right-hand side of the pressure Poisson equation.
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// Writes scale * div(u) on the owned cells of `out`; needs the low neighbour faces (ghost index g - 1) to be valid.
/// On GPUs it marches columns of cell pairs where the fields allow (grid/pair_columns.hpp).
void compute_divergence(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale);

/// compute_divergence by columns of cell pairs on any backend; requires grid::fits_cell_pairs for the fields.
void compute_divergence_by_pairs(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid,
                                 Real scale);

/// Largest |div(u)| over this rank's owned cells (no global reduction).
Real local_max_abs_divergence(const fields::FlowState& state, const StaggeredGrid& grid);

}  // namespace eddy::operators
