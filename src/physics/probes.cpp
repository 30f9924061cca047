#include "physics/probes.hpp"

#include "physics/body_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace eddy::physics {
namespace {

// A point's value as a weighted sum of one field's nodes, in global node indices.
struct GlobalTerm {
  int node[3];
  Real weight;
};

// Where a field's nodes sit: node n along axis a is at origin + (n + shift[a]) h (faces of their component: 1, the
// high face of cell n, from n = -1 for the low boundary face; elsewhere cell centres: 0.5).
struct NodeGrid {
  Real shift[3];
  int low[3], high[3];  // the node range along each axis
};

NodeGrid node_grid(int field, const grid::GlobalGrid& global) {
  NodeGrid nodes{};
  for (int a = 0; a < 3; ++a) {
    const bool face = a == field;  // field 0..2: the velocity components
    nodes.shift[a] = face ? 1 : 0.5;
    nodes.low[a] = face && !global.periodic[a] ? -1 : 0;
    nodes.high[a] = global.cells[a] - 1;
  }
  return nodes;
}

class Geometry {
 public:
  Geometry(const config::Deck& deck, const grid::Decomposition& decomp) : deck_(deck), global_(decomp.global) {
    for (const auto& body : deck.bodies) bodies_.push_back(body_geometry(body, deck.domain.dimensions));
    for (int a = 0; a < dims(); ++a) diagonal_ += global_.spacing(a) * global_.spacing(a);
    diagonal_ = std::sqrt(diagonal_);
  }
  int dims() const { return deck_.domain.dimensions; }
  Real diagonal() const { return diagonal_; }

  // Signed distance to the nearest body (the largest Real without bodies) and that body.
  Real distance(const Real x[3], int* body = nullptr) const {
    const NearestBody nearest = nearest_body(bodies_, x);
    if (body) *body = nearest.body;
    return nearest.distance;
  }
  // The outward unit normal of body b at x (x itself where the distance has no gradient there).
  void normal(int b, const Real x[3], Real n[3]) const {
    Real shortest = global_.spacing(0);
    for (int a = 1; a < dims(); ++a) shortest = std::min(shortest, global_.spacing(a));
    if (!surface_normal(bodies_[b], x, dims(), Real(1e-6) * shortest, n)) n[0] = 1;
  }
  // The multilinear stencil of x on a field's nodes, clamped to the node range (constant beyond its ends); false when
  // a node lies in a body.
  bool stencil(const Real x[3], const NodeGrid& nodes, Real scale, std::vector<GlobalTerm>& terms) const {
    int base[3] = {0, 0, 0};
    Real t[3] = {0, 0, 0};
    for (int a = 0; a < dims(); ++a) {
      const Real s = node_coordinate(a, x[a], nodes);
      if (s <= nodes.low[a]) {
        base[a] = nodes.low[a];
      } else if (s >= nodes.high[a]) {
        base[a] = nodes.high[a];
      } else {
        base[a] = static_cast<int>(std::floor(s));
        t[a] = s - base[a];
      }
    }
    bool fluid = true;
    for (int corner = 0; corner < 8; ++corner) {
      const int d[3] = {corner & 1, (corner >> 1) & 1, (corner >> 2) & 1};
      Real weight = scale;
      for (int a = 0; a < 3; ++a) weight *= d[a] ? t[a] : 1 - t[a];
      if (weight == 0) continue;
      GlobalTerm term{{base[0] + d[0], base[1] + d[1], base[2] + d[2]}, weight};
      Real y[3] = {0, 0, 0};
      for (int a = 0; a < dims(); ++a) y[a] = node_position(a, term.node[a], nodes);
      fluid = fluid && distance(y) > 0;
      terms.push_back(term);
    }
    return fluid;
  }

 private:
  // Where node n of axis a lies.
  Real node_position(int a, int n, const NodeGrid& nodes) const {
    if (!global_.stretched(a)) return deck_.domain.origin[a] + (n + nodes.shift[a]) * global_.spacing(a);
    return nodes.shift[a] == 1 ? global_.face(a, n + 1) : global_.centre(a, n);
  }
  // Coordinate x of axis a in node units: n + t between nodes n and n + 1 (below low or above high: clamped by the
  // caller).
  Real node_coordinate(int a, Real x, const NodeGrid& nodes) const {
    if (!global_.stretched(a)) return (x - deck_.domain.origin[a]) / global_.spacing(a) - nodes.shift[a];
    if (x <= node_position(a, nodes.low[a], nodes)) return nodes.low[a];
    if (x >= node_position(a, nodes.high[a], nodes)) return nodes.high[a];
    int lo = nodes.low[a], hi = nodes.high[a];  // node lo at or below x, node hi above it
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      (node_position(a, mid, nodes) <= x ? lo : hi) = mid;
    }
    const Real below = node_position(a, lo, nodes);
    return lo + (x - below) / (node_position(a, lo + 1, nodes) - below);
  }

  const config::Deck& deck_;
  grid::GlobalGrid global_;
  std::vector<BodyGeometry> bodies_;
  Real diagonal_ = 0;
};

// The terms of one probe value: interpolated where the point is far enough from every body and its stencil is fluid,
// else from the fluid along the normal of the nearest body. A velocity component vanishes on the surface and is
// linear to an image point a cell diagonal D out; a pressure or scalar is extrapolated from image points 2 D and 3 D
// out, whose stencils keep clear of the cells along the surface whose every face the forcing sets (their pressure is
// not the flow's: physics/immersed_boundary.hpp, forced_cells).
std::vector<GlobalTerm> probe_terms(const Geometry& geometry, const Real x[3], const NodeGrid& nodes, bool velocity) {
  std::vector<GlobalTerm> terms;
  int body = -1;
  const Real d = geometry.distance(x, &body);
  const Real D = geometry.diagonal(), near = velocity ? D : 2 * D;
  const bool fluid = geometry.stencil(x, nodes, 1, terms);
  if (body < 0 || (d >= near && fluid)) return terms;
  terms.clear();
  Real n[3];
  geometry.normal(body, x, n);
  const Real out = std::max(d, Real(0));
  auto image = [&](Real distance, Real y[3]) {
    for (int a = 0; a < 3; ++a) y[a] = x[a] + (distance - d) * n[a];
  };
  Real first[3], second[3];
  if (velocity) {
    image(D, first);
    if (out > 0) geometry.stencil(first, nodes, std::min(out / D, Real(1)), terms);
    return terms;
  }
  image(near, first);
  image(near + D, second);
  const Real beyond = (near - out) / D;  // linear through the two image points, taken back to the distance `out`
  geometry.stencil(first, nodes, 1 + beyond, terms);
  geometry.stencil(second, nodes, -beyond, terms);
  return terms;
}

// Fields sampled, in the order of Probes::terms_.
const char* const flow_names[4] = {"u", "v", "w", "p"};

}  // namespace

std::vector<config::ProbeConfig> line_points(const config::LineConfig& line) {
  std::vector<config::ProbeConfig> points;
  for (int n = 0; n < line.points; ++n) {
    const double s = static_cast<double>(n) / (line.points - 1);
    config::ProbeConfig point{line.name + "_" + std::to_string(n), {0, 0, 0}};
    for (int a = 0; a < 3; ++a) point.at[a] = line.from[a] + s * (line.to[a] - line.from[a]);
    points.push_back(point);
  }
  return points;
}

Probes::Probes(const config::Deck& deck, const std::vector<config::ProbeConfig>& points,
               const grid::Decomposition& decomp, const operators::StaggeredGrid& grid,
               const std::vector<std::string>& scalar_names) {
  for (int f = 0; f < 4 + static_cast<int>(scalar_names.size()); ++f) {
    if (f < 3 && f >= deck.domain.dimensions) continue;
    quantities_.push_back(f < 4 ? flow_names[f] : scalar_names[f - 4]);
  }
  if (points.empty()) return;
  const Geometry geometry(deck, decomp);
  const int dims = deck.domain.dimensions, g = grid.shape.ghost;
  const int fields = 4 + static_cast<int>(scalar_names.size());
  std::vector<std::vector<ProbeTerm>> owned(fields);
  for (const auto& probe : points) {
    const Real x[3] = {Real(probe.at[0]), Real(probe.at[1]), dims == 3 ? Real(probe.at[2]) : Real(0)};
    for (int f = 0; f < fields; ++f) {
      if (f < 3 && f >= dims) continue;
      const int value = static_cast<int>(names_.size());
      names_.push_back(probe.name + "_" + (f < 4 ? flow_names[f] : scalar_names[f - 4]));
      const NodeGrid nodes = node_grid(f < 3 ? f : -1, decomp.global);
      for (const GlobalTerm& term : probe_terms(geometry, x, nodes, f < 3)) {
        ProbeTerm local{value, {0, 0, 0}, term.weight};
        bool mine = true;
        for (int a = 0; a < 3; ++a) {
          // A face node -1 (the low boundary face) belongs to the block of cell 0.
          const int cell = std::max(term.node[a], 0) - decomp.offset[a];
          mine = mine && cell >= 0 && cell < decomp.local_cells[a];
          local.index[a] = term.node[a] - decomp.offset[a] + g;
        }
        if (mine) owned[f].push_back(local);
      }
    }
  }
  for (int f = 0; f < fields; ++f) {
    terms_.emplace_back("probes::terms", owned[f].size());
    auto host = Kokkos::create_mirror_view(terms_.back());
    for (std::size_t n = 0; n < owned[f].size(); ++n) host(n) = owned[f][n];
    Kokkos::deep_copy(terms_.back(), host);
  }
  values_ = Buffer("probes::values", names_.size());
}

void Probes::sample(const fields::FlowState& state, const std::vector<Field>& scalars, const parallel::Reducer& reducer,
                    std::vector<NamedValue>& extra) const {
  if (!any()) return;
  const Buffer values = values_;
  Kokkos::deep_copy(ExecSpace(), values, Real(0));
  for (std::size_t f = 0; f < terms_.size(); ++f) {
    const auto terms = terms_[f];
    if (terms.extent(0) == 0) continue;
    const Field field = f == 0 ? state.u : f == 1 ? state.v : f == 2 ? state.w : f == 3 ? state.p : scalars[f - 4];
    Kokkos::parallel_for(
        "physics::probes", Range(0, static_cast<int>(terms.extent(0))), KOKKOS_LAMBDA(int n) {
          const ProbeTerm& term = terms(n);
          Kokkos::atomic_add(&values(term.value), term.weight * field(term.index[0], term.index[1], term.index[2]));
        });
  }
  reducer.allreduce(values, parallel::ReduceOp::sum);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  for (std::size_t v = 0; v < names_.size(); ++v) extra.push_back({names_[v], host(v)});
}

}  // namespace eddy::physics
