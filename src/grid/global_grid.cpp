#include "grid/global_grid.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace eddy::grid {
namespace {

// The tanh map of s in [0, 1] onto [0, 1], clustering towards `cluster` with factor b.
double clustered(config::Clustering cluster, double b, double s) {
  switch (cluster) {
    case config::Clustering::both:
      return 0.5 * (1 + std::tanh(b * (2 * s - 1)) / std::tanh(b));
    case config::Clustering::low:
      return 1 + std::tanh(b * (s - 1)) / std::tanh(b);
    case config::Clustering::high:
      return std::tanh(b * s) / std::tanh(b);
    case config::Clustering::none:
      break;
  }
  return s;
}

// The factor whose first cell (at a clustered end) is `width` of an axis of `length`: the first cell narrows
// monotonically as the factor grows, from length / cells at factor 0.
double factor_for_first_cell(config::Clustering cluster, int cells, double length, double width) {
  const auto first = [&](double b) {
    return cluster == config::Clustering::high ? length * (1 - clustered(cluster, b, 1 - 1.0 / cells))
                                               : length * clustered(cluster, b, 1.0 / cells);
  };
  double lo = 1e-6, hi = 40;
  require(first(hi) < width, "domain.stretching: a first cell of " + std::to_string(width) + " is too narrow");
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (first(mid) > width ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

std::vector<double> stretched_faces(const config::DomainConfig& domain, int axis) {
  const auto& s = domain.stretching[axis];
  if (!s.faces.empty()) return s.faces;
  const int n = domain.cells[axis];
  const double length = domain.length[axis];
  const double b = s.factor > 0 ? s.factor : factor_for_first_cell(s.cluster, n, length, s.first_cell);
  std::vector<double> faces(n + 1);
  for (int m = 0; m <= n; ++m) faces[m] = domain.origin[axis] + length * clustered(s.cluster, b, double(m) / n);
  faces[0] = domain.origin[axis];
  faces[n] = domain.origin[axis] + length;
  return faces;
}

double GlobalGrid::smallest_width(int axis) const {
  double smallest = width(axis, 0);
  for (int n = 1; n < cells[axis] && stretched(axis); ++n) smallest = std::min(smallest, width(axis, n));
  return smallest;
}

double GlobalGrid::largest_width(int axis) const {
  double largest = width(axis, 0);
  for (int n = 1; n < cells[axis] && stretched(axis); ++n) largest = std::max(largest, width(axis, n));
  return largest;
}

int GlobalGrid::cell_at(int axis, double x) const {
  if (!stretched(axis)) {
    return std::clamp(static_cast<int>(std::floor((x - origin[axis]) / spacing(axis))), 0, cells[axis] - 1);
  }
  const auto& f = faces[axis];
  const auto above = std::upper_bound(f.begin(), f.end(), x);
  return std::clamp(static_cast<int>(above - f.begin()) - 1, 0, cells[axis] - 1);
}

GlobalGrid global_grid(const config::Deck& deck) {
  GlobalGrid grid;
  grid.dim = deck.domain.dimensions;
  for (int a = 0; a < 3; ++a) {
    grid.cells[a] = deck.domain.cells[a];
    grid.length[a] = deck.domain.length[a];
    grid.origin[a] = deck.domain.origin[a];
    const bool low = deck.boundary.face(a, 0).type == config::BoundaryType::periodic;
    const bool high = deck.boundary.face(a, 1).type == config::BoundaryType::periodic;
    require(low == high, "boundary: axis " + std::string(1, "xyz"[a]) + " is periodic on one side only");
    grid.periodic[a] = low;
    if (a < grid.dim && deck.domain.stretching[a].stretched()) grid.faces[a] = stretched_faces(deck.domain, a);
  }
  if (grid.dim == 2) {
    grid.cells[2] = 1;
    grid.periodic[2] = true;
  }
  return grid;
}

}  // namespace eddy::grid
