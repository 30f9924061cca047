#include "solver/colour_stencil.hpp"

namespace eddy::solver {

bool wraps_onto_itself(const PoissonLevel& level, int f) {
  const int axis = f / 2;
  return level.decomp.wraps_onto_itself(axis) && level.decomp.global.cells[axis] % 2 == 0;
}

ColourStencil colour_stencil(const PoissonLevel& level, Real relaxation, bool wrap_in_place) {
  require(relaxation > 0 && relaxation < 2, "red-black sweep: the relaxation factor must lie in (0, 2)");
  ColourStencil s;
  s.w = level.weights();
  s.relaxation = relaxation;
  s.kept = 1 - relaxation;
  s.relaxed_inverse = relaxation / s.w.diagonal();
  s.z_active = s.w.z != 0;
  for (int a = 0; a < 3; ++a) s.n[a] = level.shape.cells[a];
  s.ghost = level.shape.ghost;
  const auto& o = level.decomp.offset;
  s.offset_parity = (o[0] + o[1] + o[2]) & 1;
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const bool physical = level.decomp.on_boundary(axis, f % 2);
    s.fold[f] = 0;
    if (physical && level.faces[f] == PressureBoundary::neumann) s.fold[f] = 1;
    if (physical && level.faces[f] == PressureBoundary::dirichlet) s.fold[f] = -1;
    s.shared[f] = !physical && (axis < 2 || s.z_active);
    const auto& d = level.decomp;
    const bool at_end = f % 2 == 0 ? d.offset[axis] == 0 : d.offset[axis] + d.local_cells[axis] == d.global.cells[axis];
    s.seam[f] = s.shared[f] && d.global.periodic[axis] && at_end && d.global.cells[axis] % 2 == 1;
    const bool across = wrap_in_place && s.shared[f] && wraps_onto_itself(level, f);
    s.step[f] = (f % 2 == 0 ? -1 : 1) * (across ? 1 - s.n[axis] : 1);
  }
  return s;
}

}  // namespace eddy::solver
