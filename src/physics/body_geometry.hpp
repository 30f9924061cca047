#pragma once
// Shapes of immersed bodies as signed distances: negative inside the solid, positive in the fluid, zero on the
// surface. Exact for circles, spheres and cylinders, and the Euclidean distance for boxes.
#include "config/deck.hpp"
#include "core/types.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace eddy::physics {

/// A body's geometry, plain data.
struct BodyGeometry {
  config::BodyShape shape = config::BodyShape::circle;
  Real center[3] = {0, 0, 0};
  Real radius = 0;
  Real half_size[3] = {0, 0, 0};
  int axis = 2;  ///< cylinder axis
  bool three_d = false;
};

/// The geometry of a deck body.
inline BodyGeometry body_geometry(const config::BodyConfig& body, int dimensions) {
  BodyGeometry g;
  g.shape = body.shape;
  for (int a = 0; a < 3; ++a) {
    g.center[a] = body.center[a];
    g.half_size[a] = 0.5 * body.size[a];
  }
  g.radius = body.radius;
  g.axis = body.axis;
  g.three_d = dimensions == 3;
  return g;
}

/// Signed distance from the point x to the surface of the body.
KOKKOS_INLINE_FUNCTION Real signed_distance(const BodyGeometry& body, const Real x[3]) {
  const int axes = body.three_d ? 3 : 2;
  if (body.shape == config::BodyShape::box) {
    Real outside = 0, inside = -1e300;
    for (int a = 0; a < axes; ++a) {
      const Real q = Kokkos::fabs(x[a] - body.center[a]) - body.half_size[a];
      if (q > 0) outside += q * q;
      if (q > inside) inside = q;
    }
    return outside > 0 ? Kokkos::sqrt(outside) : inside;
  }
  Real r2 = 0;
  for (int a = 0; a < axes; ++a) {
    if (body.shape == config::BodyShape::cylinder && a == body.axis) continue;
    const Real d = x[a] - body.center[a];
    r2 += d * d;
  }
  return Kokkos::sqrt(r2) - body.radius;
}

/// The nearest of several bodies to a point: its signed distance and index (-1 and the largest Real without bodies).
struct NearestBody {
  Real distance;
  int body;
};

/// The body nearest to x (host).
inline NearestBody nearest_body(const std::vector<BodyGeometry>& bodies, const Real x[3]) {
  NearestBody best{std::numeric_limits<Real>::max(), -1};
  for (int b = 0; b < static_cast<int>(bodies.size()); ++b) {
    const Real d = signed_distance(bodies[b], x);
    if (d < best.distance) best = {d, b};
  }
  return best;
}

/// The outward unit normal of `body` at x from central differences of its distance, `eps` apart along each of the
/// first `dims` axes (host); false where the distance has no gradient there.
inline bool surface_normal(const BodyGeometry& body, const Real x[3], int dims, Real eps, Real n[3]) {
  Real length = 0;
  for (int a = 0; a < 3; ++a) {
    n[a] = 0;
    if (a >= dims) continue;
    Real plus[3] = {x[0], x[1], x[2]}, minus[3] = {x[0], x[1], x[2]};
    plus[a] += eps;
    minus[a] -= eps;
    n[a] = (signed_distance(body, plus) - signed_distance(body, minus)) / (2 * eps);
    length += n[a] * n[a];
  }
  length = std::sqrt(length);
  if (!(length > 0)) return false;
  for (int a = 0; a < 3; ++a) n[a] /= length;
  return true;
}

}  // namespace eddy::physics
