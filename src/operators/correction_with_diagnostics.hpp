#pragma once
// The last projection of a step written out of place, with the step's flow diagnostics computed in the same pass:
// u = u* - factor grad(phi) goes into a second velocity buffer, and each thread adds the cells of its faces to the
// diagnostics. The correction in place and the diagnostics' own pass read the velocity twice. In place a thread could
// not read the faces of its neighbours (another block may have corrected them already); out of place it reads u*,
// which no thread writes, and corrects the neighbours' faces it needs itself.
#include "fields/face_vector.hpp"
#include "operators/flow_diagnostics.hpp"
#include "operators/gradient.hpp"

namespace eddy::operators {

/// Whether correct_and_diagnose can run: every field fits loops over face pairs (grid/pair_columns.hpp), and the high
/// x ghost face of `row_ends` (if any) is the second face of its pair.
bool fits_diagnosed_correction(const fields::FlowState& state, const fields::FaceVector& out, const StaggeredGrid& grid,
                               const parallel::RowEndImages& row_ends);

/// Writes the velocity of `state` less factor * grad(state.p) into `out` on the faces subtract_pressure_gradient moves,
/// and the velocity as it is everywhere else (ghosts, boundary faces the correction leaves), and returns the
/// diagnostics local_flow_diagnostics finds for `out` once the halo exchange has filled its ghosts. The ghosts of the
/// velocity and of the pressure must be valid.
LocalDiagnostics correct_and_diagnose(const fields::FlowState& state, const fields::FaceVector& out, Real factor,
                                      const StaggeredGrid& grid, const CorrectedBoundaries& corrected,
                                      const parallel::RowEndImages& row_ends = {});

}  // namespace eddy::operators
