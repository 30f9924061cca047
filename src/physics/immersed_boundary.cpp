#include "physics/immersed_boundary.hpp"

#include "config/names.hpp"
#include "config/names_physics.hpp"
#include "core/error.hpp"
#include "physics/body_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace eddy::physics {
namespace {

// True where the forcing sets the face at x: inside a body, or with a face neighbour (a step h along an axis) inside.
bool forced_face(const std::vector<BodyGeometry>& bodies, const Real x[3], const grid::GlobalGrid& global) {
  if (nearest_body(bodies, x).distance <= 0) return true;
  for (int a = 0; a < global.dim; ++a) {
    for (int step : {-1, 1}) {
      Real y[3] = {x[0], x[1], x[2]};
      y[a] += step * global.spacing(a);
      if (nearest_body(bodies, y).distance <= 0) return true;
    }
  }
  return false;
}

}  // namespace

void require_fluid_around_bodies(const config::Deck& deck) {
  const auto& d = deck.domain;
  const int corners = d.dimensions == 3 ? 8 : 4;
  for (std::size_t n = 0; n < deck.bodies.size(); ++n) {
    const BodyGeometry body = body_geometry(deck.bodies[n], d.dimensions);
    bool covers = true;
    for (int c = 0; c < corners && covers; ++c) {
      Real x[3] = {0, 0, 0};
      for (int a = 0; a < d.dimensions; ++a) {
        const double h = d.length[a] / d.cells[a];
        x[a] = d.origin[a] + ((c >> a) & 1 ? d.length[a] - h / 2 : h / 2);
      }
      covers = signed_distance(body, x) < 0;
    }
    if (covers) {
      throw Error("bodies[" + std::to_string(n) + "] ('" + deck.bodies[n].name + "', a " +
                  config::to_string(deck.bodies[n].shape) +
                  ") covers every cell of the domain, leaving no fluid; allowed: a body that leaves fluid around it "
                  "(check its center, radius or size against domain.length)");
    }
  }
}

std::vector<Real> solid_fractions(const config::Deck& deck, const grid::Decomposition& decomp) {
  const int dims = deck.domain.dimensions;
  std::vector<BodyGeometry> bodies;
  for (const auto& body : deck.bodies) bodies.push_back(body_geometry(body, dims));
  const auto& n = decomp.local_cells;
  std::vector<Real> fractions(static_cast<std::size_t>(n[0]) * n[1] * n[2], 0);
  if (bodies.empty()) return fractions;
  const int samples_z = dims == 3 ? solid_samples : 1;
  const Real per_sample = Real(1) / (solid_samples * solid_samples * samples_z);
  std::size_t cell = 0;
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i, ++cell) {
        const int idx[3] = {i, j, k};
        int inside = 0;
        for (int sk = 0; sk < samples_z; ++sk) {
          for (int sj = 0; sj < solid_samples; ++sj) {
            for (int si = 0; si < solid_samples; ++si) {
              const int sample[3] = {si, sj, sk};
              Real x[3];
              for (int a = 0; a < 3; ++a) {
                const Real within = a == 2 && dims == 2 ? Real(0.5) : (sample[a] + Real(0.5)) / solid_samples;
                x[a] = deck.domain.origin[a] + (decomp.offset[a] + idx[a] + within) * decomp.global.spacing(a);
              }
              inside += nearest_body(bodies, x).distance < 0;
            }
          }
        }
        fractions[cell] = inside * per_sample;
      }
    }
  }
  return fractions;
}

std::vector<char> forced_cells(const config::Deck& deck, const grid::Decomposition& decomp) {
  const int dims = deck.domain.dimensions;
  std::vector<BodyGeometry> bodies;
  for (const auto& body : deck.bodies) bodies.push_back(body_geometry(body, dims));
  const auto& n = decomp.local_cells;
  const auto& global = decomp.global;
  std::vector<char> forced(static_cast<std::size_t>(n[0]) * n[1] * n[2], 0);
  if (bodies.empty()) return forced;
  std::size_t cell = 0;
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i, ++cell) {
        const int idx[3] = {i, j, k};
        bool all = true;
        for (int c = 0; c < dims && all; ++c) {
          for (int side : {0, 1}) {
            Real x[3] = {0, 0, 0};
            for (int a = 0; a < 3; ++a) {
              const Real within = a == c ? side : Real(0.5);
              x[a] = global.origin[a] + (decomp.offset[a] + idx[a] + within) * global.spacing(a);
            }
            all = all && forced_face(bodies, x, global);
          }
        }
        forced[cell] = all ? 1 : 0;
      }
    }
  }
  return forced;
}

ImmersedBoundary::ImmersedBoundary(const config::Deck& deck, const grid::Decomposition& decomp,
                                   const operators::StaggeredGrid& grid)
    : cell_volume_(grid.cell_volume()) {
  const int dims = deck.domain.dimensions;
  std::vector<BodyGeometry> bodies;
  for (const auto& body : deck.bodies) {
    bodies.push_back(body_geometry(body, dims));
    names_.push_back(body.name);
  }
  forces_ = Buffer("immersed_boundary::forces", 3 * bodies.size() + 1);
  std::vector<ForcingPoint> points;
  const int g = grid.shape.ghost;
  Real diagonal = 0;  // the image point's distance beyond the face: one cell diagonal
  for (int a = 0; a < dims; ++a) diagonal += grid.spacing[a] * grid.spacing[a];
  diagonal = std::sqrt(diagonal);
  const Real shortest = *std::min_element(grid.spacing.begin(), grid.spacing.begin() + dims);
  for (int c = 0; c < grid.components() && !bodies.empty(); ++c) {
    // Face position along each axis: the high side of its cell along the component, the centre along the others.
    auto shift = [c](int a) { return a == c ? Real(1) : Real(0.5); };
    auto position = [&](const int idx[3], Real x[3]) {
      for (int a = 0; a < 3; ++a)
        x[a] = deck.domain.origin[a] + (decomp.offset[a] + idx[a] - g + shift(a)) * grid.spacing[a];
    };
    auto fluid = [&](const int idx[3]) {
      Real x[3];
      position(idx, x);
      return nearest_body(bodies, x).distance > 0;
    };
    // The stencil of the image point of the face at x (distance d from the nearest body): false where it leaves the
    // block's ghosts or touches a solid face.
    auto normal_stencil = [&](const Real x[3], const NearestBody& here, ForcingPoint& point) {
      Real normal[3];
      if (!surface_normal(bodies[here.body], x, dims, Real(1e-6) * shortest, normal)) return false;
      for (int a = 0; a < 3; ++a) {
        point.outer[a] = point.index[a];
        point.t[a] = 0;
        if (a >= dims) continue;
        const Real image = x[a] + diagonal * normal[a];
        const Real s = (image - deck.domain.origin[a]) / grid.spacing[a] - decomp.offset[a] + g - shift(a);
        point.outer[a] = static_cast<int>(std::floor(s));
        point.t[a] = s - point.outer[a];
        if (point.outer[a] < 0 || point.outer[a] + 1 >= grid.shape.extent(a)) return false;
      }
      for (int corner = 0; corner < (1 << dims); ++corner) {
        const int idx[3] = {point.outer[0] + (corner & 1), point.outer[1] + ((corner >> 1) & 1),
                            point.outer[2] + ((corner >> 2) & 1)};
        if (!fluid(idx)) return false;
      }
      point.body = here.body;
      point.weight = here.distance / (here.distance + diagonal);
      return true;
    };
    // The momentum faces of component c: owned faces without the physical boundary face on the high side.
    Int3 hi{g + grid.shape.cells[0], g + grid.shape.cells[1], g + grid.shape.cells[2]};
    if (grid.physical[c][1]) hi[c] -= 1;
    for (int k = g; k < hi[2]; ++k) {
      for (int j = g; j < hi[1]; ++j) {
        for (int i = g; i < hi[0]; ++i) {
          const int idx[3] = {i, j, k};
          Real x[3];
          position(idx, x);
          const NearestBody here = nearest_body(bodies, x);
          ForcingPoint point{{i, j, k}, {i, j, k}, {0, 0, 0}, c, here.body, 0};
          if (here.distance <= 0) {
            points.push_back(point);
            continue;
          }
          // The face neighbour across the nearest surface crossing, if any neighbour is solid.
          Real best_distance = std::numeric_limits<Real>::max();
          for (int a = 0; a < dims; ++a) {
            for (int step : {-1, 1}) {
              int neighbour[3] = {i, j, k};
              neighbour[a] += step;
              Real y[3];
              position(neighbour, y);
              const NearestBody there = nearest_body(bodies, y);
              if (there.distance > 0) continue;
              const Real fraction = here.distance / (here.distance - there.distance);  // in cells of axis a
              if (fraction * grid.spacing[a] >= best_distance) continue;
              best_distance = fraction * grid.spacing[a];
              point.body = there.body;
              point.outer[0] = i;
              point.outer[1] = j;
              point.outer[2] = k;
              point.outer[a] -= step;
              point.weight = fraction / (fraction + 1);
            }
          }
          if (best_distance == std::numeric_limits<Real>::max()) continue;
          ForcingPoint along_normal = point;
          points.push_back(normal_stencil(x, here, along_normal) ? along_normal : point);
        }
      }
    }
  }
  points_ = Kokkos::View<ForcingPoint*, MemSpace>("immersed_boundary::points", points.size());
  auto host = Kokkos::create_mirror_view(points_);
  for (std::size_t n = 0; n < points.size(); ++n) host(n) = points[n];
  Kokkos::deep_copy(points_, host);
  targets_ = Kokkos::View<Real*, MemSpace>("immersed_boundary::targets", points.size());
}

void ImmersedBoundary::apply(const fields::FlowState& state, Real step_dt) {
  const auto points = points_;
  const auto targets = targets_;
  const auto forces = forces_;
  const Field u = state.u, v = state.v, w = state.w;
  const Real scale = -cell_volume_ / step_dt;
  const int n = static_cast<int>(points.extent(0));
  // Targets first, from the predicted field, so that no face reads a neighbour another thread already forced.
  Kokkos::parallel_for(
      "physics::ib_targets", Range(0, n), KOKKOS_LAMBDA(int p) {
        const ForcingPoint& q = points(p);
        const Field f = q.component == 0 ? u : (q.component == 1 ? v : w);
        // Multilinear in the stencil's cell; an axis with t = 0 reads its lower face only.
        Real image = 0;
        for (int dk = 0; dk <= (q.t[2] > 0 ? 1 : 0); ++dk) {
          for (int dj = 0; dj <= (q.t[1] > 0 ? 1 : 0); ++dj) {
            for (int di = 0; di <= (q.t[0] > 0 ? 1 : 0); ++di) {
              const Real share = (di ? q.t[0] : 1 - q.t[0]) * (dj ? q.t[1] : 1 - q.t[1]) * (dk ? q.t[2] : 1 - q.t[2]);
              image += share * f(q.outer[0] + di, q.outer[1] + dj, q.outer[2] + dk);
            }
          }
        }
        targets(p) = q.weight * image;
      });
  Kokkos::parallel_for(
      "physics::ib_forcing", Range(0, n), KOKKOS_LAMBDA(int p) {
        const ForcingPoint& q = points(p);
        const Field f = q.component == 0 ? u : (q.component == 1 ? v : w);
        Real& value = f(q.index[0], q.index[1], q.index[2]);
        Kokkos::atomic_add(&forces(3 * q.body + q.component), scale * (targets(p) - value));
        value = targets(p);
      });
}

std::vector<std::array<double, 3>> ImmersedBoundary::take_step_forces(const parallel::Reducer& reducer,
                                                                      double density) {
  reducer.allreduce(forces_, parallel::ReduceOp::sum);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), forces_);
  std::vector<std::array<double, 3>> result(names_.size());
  for (std::size_t b = 0; b < names_.size(); ++b) {
    for (int c = 0; c < 3; ++c) result[b][c] = density * host(3 * b + c);
  }
  Kokkos::deep_copy(forces_, 0);
  return result;
}

}  // namespace eddy::physics
