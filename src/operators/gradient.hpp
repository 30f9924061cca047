#pragma once
// The pressure-gradient correction of the projection: u <- u - factor * grad(phi) on the faces.
#include "operators/staggered_grid.hpp"
#include "parallel/row_end_images.hpp"

namespace eddy::operators {

/// Which physical boundary faces the correction moves, per axis and side: those with a Dirichlet pressure condition
/// (outflow). Wall and inflow faces keep the normal velocity their boundary condition set.
using CorrectedBoundaries = std::array<std::array<bool, 2>, 3>;

/// Subtracts factor * grad(phi) from the owned faces (and the flagged boundary faces) and, with `row_ends`, from the x
/// ghost faces of the owned rows, which then hold their images; the ghosts of phi (and with `row_ends` of the velocity)
/// must be valid, and no y or z boundary face corrected. On GPUs it marches columns of face pairs where the fields
/// allow (grid/pair_columns.hpp).
void subtract_pressure_gradient(const fields::FlowState& state, const Field& phi, Real factor,
                                const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                const parallel::RowEndImages& row_ends = {});

// The correction ran faster on columns half as long as the other pair loops' (tests/perf/RESULTS.md).
/// The longest column of planes the correction by pairs marches per thread: half of `pair_planes`, at least 2.
int correction_planes(int pair_planes);

/// subtract_pressure_gradient by columns of face pairs of up to `longest` planes (0: correction_planes of the block's)
/// on any backend; requires grid::fits_cell_pairs for the fields and, with `row_ends`, an even number of cells along x.
void subtract_pressure_gradient_by_pairs(const fields::FlowState& state, const Field& phi, Real factor,
                                         const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                         const parallel::RowEndImages& row_ends = {}, int longest = 0);

}  // namespace eddy::operators
