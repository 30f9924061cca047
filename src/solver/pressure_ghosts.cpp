#include "solver/pressure_ghosts.hpp"

namespace eddy::solver {

void apply_pressure_ghosts(Field phi, const fields::LocalShape& shape, const grid::Decomposition& decomp,
                           const PressureFaces& faces) {
  // sign[2 axis + side]: 0 = leave alone, +1 = neumann, -1 = dirichlet. One launch covers the ghost faces of every
  // physical axis: a ghost point copies the interior point reached by folding each of its indices that lies beyond
  // a physical face (so edges and corners get the product of the signs, as axis-by-axis passes would give).
  Kokkos::Array<Real, 6> sign{};
  Kokkos::Array<int, 4> start{};
  Kokkos::Array<int, 3> n{}, extent{};
  int total = 0;
  for (int axis = 0; axis < 3; ++axis) {
    n[axis] = shape.cells[axis];
    extent[axis] = shape.extent(axis);
    start[axis] = total;
    bool any = false;
    for (int side = 0; side < 2; ++side) {
      const auto type = faces[2 * axis + side];
      sign[2 * axis + side] = 0;
      if (!decomp.on_boundary(axis, side) || type == PressureBoundary::periodic) continue;
      sign[2 * axis + side] = type == PressureBoundary::neumann ? 1 : -1;
      any = true;
    }
    if (any) total += 2 * shape.extent((axis + 1) % 3) * shape.extent((axis + 2) % 3);
  }
  start[3] = total;
  if (total == 0) return;
  const int g = shape.ghost;
  Kokkos::parallel_for(
      "poisson::pressure_ghosts", Range(0, total), KOKKOS_LAMBDA(int idx) {
        const int axis = idx < start[1] ? 0 : (idx < start[2] ? 1 : 2);
        const int b = (axis + 1) % 3, c = (axis + 2) % 3;
        int q = idx - start[axis];
        const int side = q & 1;
        q >>= 1;
        int ijk[3];
        ijk[axis] = side == 0 ? g - 1 : g + n[axis];
        ijk[c] = q / extent[b];
        ijk[b] = q - ijk[c] * extent[b];
        if (sign[2 * axis + side] == 0) return;
        int src[3] = {ijk[0], ijk[1], ijk[2]};
        Real factor = 1;
        for (int a = 0; a < 3; ++a) {
          if (ijk[a] == g - 1 && sign[2 * a] != 0) {
            src[a] = g;
            factor *= sign[2 * a];
          } else if (ijk[a] == g + n[a] && sign[2 * a + 1] != 0) {
            src[a] = g + n[a] - 1;
            factor *= sign[2 * a + 1];
          }
        }
        phi(ijk[0], ijk[1], ijk[2]) = factor * phi(src[0], src[1], src[2]);
      });
}

}  // namespace eddy::solver
