#include "solver/pressure_ghosts.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::solver {

void apply_pressure_ghosts(Field phi, const fields::LocalShape& shape, const grid::Decomposition& decomp,
                           const PressureFaces& faces) {
  const int g = shape.ghost;
  for (int axis = 0; axis < 3; ++axis) {
    // sign[side]: 0 = leave alone, +1 = neumann, -1 = dirichlet.
    Kokkos::Array<Real, 2> sign{0, 0};
    bool any = false;
    for (int side = 0; side < 2; ++side) {
      const auto type = faces[2 * axis + side];
      if (!decomp.on_boundary(axis, side) || type == PressureBoundary::periodic) continue;
      sign[side] = type == PressureBoundary::neumann ? 1 : -1;
      any = true;
    }
    if (!any) continue;
    const int n = shape.cells[axis];
    Int3 hi{shape.extent(0), shape.extent(1), shape.extent(2)};
    hi[axis] = 2;  // index 0: low face, 1: high face
    Kokkos::parallel_for(
        "poisson::pressure_ghosts", grid::box({0, 0, 0}, hi), KOKKOS_LAMBDA(int a, int b, int c) {
          int ijk[3] = {a, b, c};
          const int side = ijk[axis];
          if (sign[side] == 0) return;
          const int ghost = side == 0 ? g - 1 : g + n;
          const int inner = side == 0 ? g : g + n - 1;
          int src[3] = {a, b, c};
          ijk[axis] = ghost;
          src[axis] = inner;
          phi(ijk[0], ijk[1], ijk[2]) = sign[side] * phi(src[0], src[1], src[2]);
        });
  }
}

}  // namespace eddy::solver
