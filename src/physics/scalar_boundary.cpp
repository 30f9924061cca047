#include "physics/scalar_boundary.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::physics {

using config::ScalarBoundaryType;

ScalarBoundary::ScalarBoundary(const config::ScalarConfig& scalar, const grid::Decomposition& decomp) {
  for (int a = 0; a < 3; ++a) {
    if (decomp.global.periodic[a]) continue;
    for (int side = 0; side < 2; ++side) {
      if (!decomp.on_boundary(a, side)) continue;
      const auto& face = scalar.boundary[2 * a + side];
      ScalarFaceRule rule;
      rule.axis = a;
      rule.side = side;
      if (face.type == ScalarBoundaryType::value || face.type == ScalarBoundaryType::inflow) {
        rule.interior_weight = -1;
        rule.shift = 2 * face.value;
      } else if (face.type == ScalarBoundaryType::flux && scalar.diffusivity > 0) {
        rule.shift = decomp.global.spacing(a) * face.value / scalar.diffusivity;
      }
      rules_.push_back(rule);
    }
  }
}

void ScalarBoundary::apply(const Field& field, const fields::LocalShape& shape) const {
  for (const ScalarFaceRule& rule : rules_) {
    const int a = rule.axis, g = shape.ghost, n = shape.cells[a];
    const int ghost_cell = rule.side == 0 ? g - 1 : g + n;
    const int interior_cell = rule.side == 0 ? g : g + n - 1;
    Int3 lo{0, 0, 0};
    Int3 hi{shape.extent(0), shape.extent(1), shape.extent(2)};
    hi[a] = 1;
    const Field f = field;
    const Real weight = rule.interior_weight, shift = rule.shift;
    Kokkos::parallel_for(
        "physics::scalar_boundary", grid::box(lo, hi), KOKKOS_LAMBDA(int i, int j, int k) {
          int idx[3] = {i, j, k};
          idx[a] = interior_cell;
          const Real interior = f(idx[0], idx[1], idx[2]);
          idx[a] = ghost_cell;
          f(idx[0], idx[1], idx[2]) = weight * interior + shift;
        });
  }
}

}  // namespace eddy::physics
