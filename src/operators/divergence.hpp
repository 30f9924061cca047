#pragma once
// Divergence of the face velocities at the cell centres: the right-hand side of the pressure Poisson equation.
#include "grid/index_ranges.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// Writes scale * div(u) on the owned cells of `out`; needs the low neighbour faces (ghost index g - 1) to be valid.
/// On GPUs it marches columns of cell pairs where the fields allow (grid/pair_columns.hpp).
void compute_divergence(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale);

/// compute_divergence on the cells of `box` (view indices, inside the owned cells) only.
void compute_divergence_in(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid, Real scale,
                           const grid::IndexBox& box);

/// compute_divergence by columns of cell pairs on any backend; requires grid::fits_cell_pairs for the fields.
void compute_divergence_by_pairs(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid,
                                 Real scale);

/// compute_divergence_in by columns of cell pairs on any backend; requires grid::fits_cell_pairs for the fields.
void compute_divergence_by_pairs(const fields::FlowState& state, const Field& out, const StaggeredGrid& grid,
                                 Real scale, const grid::IndexBox& box);

}  // namespace eddy::operators
