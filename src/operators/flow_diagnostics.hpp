#pragma once
// The per-step flow diagnostics of a rank, computed in one fused pass over its cells; the simulation combines them
// across ranks.
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// What one rank contributes to a step's diagnostics.
struct LocalDiagnostics {
  Real kinetic_energy = 0;  ///< 0.5 sum |u|^2 dV over the owned faces (sum across ranks)
  Real max_divergence = 0;  ///< max |div u| over the owned cells (max across ranks)
  Real velocity_rate = 0;   ///< max(|u|/dx + |v|/dy + |w|/dz) per cell, from the larger of each pair of faces
};

/// Computes the rank's diagnostics; the velocity ghosts must be valid. On GPUs by columns of cell pairs where the
/// fields allow (grid/pair_columns.hpp).
LocalDiagnostics local_flow_diagnostics(const fields::FlowState& state, const StaggeredGrid& grid);

/// local_flow_diagnostics with one thread per owned cell on GPUs (the 3D policy on CPUs).
LocalDiagnostics local_flow_diagnostics_by_cells(const fields::FlowState& state, const StaggeredGrid& grid);

/// local_flow_diagnostics by columns of cell pairs on any backend; requires grid::fits_cell_pairs for the velocity.
LocalDiagnostics local_flow_diagnostics_by_pairs(const fields::FlowState& state, const StaggeredGrid& grid);

}  // namespace eddy::operators
