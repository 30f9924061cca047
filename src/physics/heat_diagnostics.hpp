#pragma once
// Diagnostics of the transported scalars: mean, minimum and maximum over the domain, and the Nusselt number on the
// two faces of every axis whose faces both hold a fixed value (a heated and a cooled wall):
//   Nu = -<dc/dx_axis>_wall * H / (c_low - c_high)
// with H the domain length along the axis and the wall gradient from the second-order one-sided formula
// dc/dn = (-8 c_wall + 9 c_1 - c_2) / (3 h) through the wall value and the two nearest cell centres. Pure conduction
// gives Nu = 1 on both walls.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/reducer.hpp"

#include <vector>

namespace eddy::physics {

/// Appends "<scalar>_mean", "_min", "_max" and "<scalar>_nusselt_<face>" (where defined) to `out` (collective).
void scalar_diagnostics(const config::ScalarConfig& scalar, const Field& field, const grid::Decomposition& decomp,
                        const operators::StaggeredGrid& grid, const parallel::Reducer& reducer,
                        std::vector<NamedValue>& out);

}  // namespace eddy::physics
