#include "physics/scalar_boundary.hpp"

#include "core/error.hpp"
#include "grid/index_ranges.hpp"

namespace eddy::physics {

using config::ScalarBoundaryType;

ScalarBoundary::ScalarBoundary(const config::ScalarConfig& scalar, const grid::Decomposition& decomp,
                               const fields::LocalShape& shape, const config::Constants& constants)
    : decomp_(decomp), shape_(shape) {
  for (int a = 0; a < 3; ++a) {
    if (decomp.global.periodic[a]) continue;
    for (int side = 0; side < 2; ++side) {
      if (!decomp.on_boundary(a, side)) continue;
      const auto& face = scalar.boundary[2 * a + side];
      ScalarFaceRule rule;
      rule.axis = a;
      rule.side = side;
      const bool given = !face.expression.empty();
      if (face.type == ScalarBoundaryType::value || face.type == ScalarBoundaryType::inflow) {
        rule.interior_weight = -1;
        rule.shift = given ? 0 : 2 * face.value;
        rule.shift_scale = given ? 2 : 0;
      } else if (face.type == ScalarBoundaryType::flux && scalar.diffusivity > 0) {
        const Real scale = decomp.global.spacing(a) / scalar.diffusivity;
        rule.shift = given ? 0 : scale * face.value;
        rule.shift_scale = given ? scale : 0;
      }
      FaceExpression values;
      if (given && rule.shift_scale != 0) {
        values.expression = std::make_unique<config::Expression>(face.expression, constants);
        values.when.unsteady = values.expression->uses("t");
        values.values =
            ScalarFaceValues("physics::scalar_face_values", shape.extent((a + 1) % 3), shape.extent((a + 2) % 3));
      } else {
        rule.shift_scale = 0;
      }
      rules_.push_back(rule);
      expressions_.push_back(std::move(values));
    }
  }
}

void ScalarBoundary::evaluate(const ScalarFaceRule& rule, FaceExpression& face, double t) {
  auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), face.values);
  const int a = rule.axis, b = (a + 1) % 3, c = (a + 2) % 3, g = shape_.ghost;
  const auto& global = decomp_.global;
  for (int p = 0; p < static_cast<int>(host.extent(0)); ++p) {
    for (int q = 0; q < static_cast<int>(host.extent(1)); ++q) {
      double x[3];
      x[a] = global.origin[a] + (rule.side == 0 ? 0.0 : global.length[a]);
      x[b] = global.position(b, decomp_.offset[b] + p - g, false);
      x[c] = global.position(c, decomp_.offset[c] + q - g, false);
      host(p, q) = (*face.expression)(x[0], x[1], x[2], t);
    }
  }
  Kokkos::deep_copy(face.values, host);
  face.when.mark(t);
}

void ScalarBoundary::set_time(double t) {
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    auto& face = expressions_[r];
    if (!face.expression || !face.when.stale(t)) continue;
    evaluate(rules_[r], face, t);
  }
}

void ScalarBoundary::apply(const Field& field, const fields::LocalShape& shape) const {
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    const ScalarFaceRule& rule = rules_[r];
    require(!expressions_[r].expression || expressions_[r].when.evaluated,
            "scalar boundary: a value given by an expression is applied before set_time evaluated it");
    const int a = rule.axis, g = shape.ghost, n = shape.cells[a];
    const int ghost_cell = rule.side == 0 ? g - 1 : g + n;
    const int interior_cell = rule.side == 0 ? g : g + n - 1;
    Int3 lo{0, 0, 0};
    Int3 hi{shape.extent(0), shape.extent(1), shape.extent(2)};
    hi[a] = 1;
    const Field f = field;
    const Real weight = rule.interior_weight, shift = rule.shift, scale = rule.shift_scale;
    const ScalarFaceValues values = expressions_[r].values;
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    Kokkos::parallel_for(
        "physics::scalar_boundary", grid::box(lo, hi), KOKKOS_LAMBDA(int i, int j, int k) {
          int idx[3] = {i, j, k};
          const Real given = scale != 0 ? scale * values(idx[b], idx[c]) : Real(0);
          idx[a] = interior_cell;
          const Real interior = f(idx[0], idx[1], idx[2]);
          idx[a] = ghost_cell;
          f(idx[0], idx[1], idx[2]) = weight * interior + shift + given;
        });
  }
}

}  // namespace eddy::physics
