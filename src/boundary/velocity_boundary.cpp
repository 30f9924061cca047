#include "boundary/velocity_boundary.hpp"

#include "core/error.hpp"
#include "grid/index_ranges.hpp"

namespace eddy::boundary {
namespace {

using config::BoundaryType;

// Where the profile of an inflow face is evaluated: global cell counts and offsets, and which axes are bounded.
struct ProfileGeometry {
  int cells[3];
  int offset[3];
  bool bounded[3];
  int ghost;
};

KOKKOS_INLINE_FUNCTION Real inflow_profile(const FaceRule& rule, const ProfileGeometry& geo, const int idx[3]) {
  if (!rule.parabolic) return 1;
  Real factor = 1;
  for (int t = 0; t < 3; ++t) {
    if (t == rule.axis || !geo.bounded[t]) continue;
    const Real s = (geo.offset[t] + idx[t] - geo.ghost + Real(0.5)) / geo.cells[t];
    const Real parabola = 6 * s * (1 - s);
    factor *= parabola > 0 ? parabola : 0;
  }
  return factor;
}

// How a stage moves convective outflow faces: by stage_dt of their equation, blended with the step's start.
struct OutflowStep {
  Real stage_dt = 0, start_weight = 0;
  fields::FaceVector start;
};

// Fills one physical face: the normal component on its boundary face, the tangential ones in the ghost layer.
void apply_face(const FaceRule& rule, const FaceValues& values, const ProfileGeometry& geo,
                const fields::FlowState& state, int components, bool set_normal, const OutflowStep& outflow,
                Real inv_spacing) {
  const fields::LocalShape& s = state.shape;
  const int a = rule.axis, g = s.ghost, n = s.cells[a];
  const int normal_face = rule.side == 0 ? g - 1 : g + n - 1;
  const int adjacent_face = rule.side == 0 ? g : g + n - 2;
  const int ghost_cell = rule.side == 0 ? g - 1 : g + n;
  const int interior_cell = rule.side == 0 ? g : g + n - 1;
  Int3 lo{0, 0, 0};
  Int3 hi{s.extent(0), s.extent(1), s.extent(2)};
  lo[a] = 0;
  hi[a] = 1;
  const Field u = state.u, v = state.v, w = state.w;
  const Field start_u = outflow.start.u, start_v = outflow.start.v, start_w = outflow.start.w;
  const Real convective_step = outflow.stage_dt * rule.convective_velocity * inv_spacing;
  const Real blend = outflow.start_weight;
  const int tangent_b = (a + 1) % 3, tangent_c = (a + 2) % 3;
  Kokkos::parallel_for(
      "boundary::velocity_face", grid::box(lo, hi), KOKKOS_LAMBDA(int i, int j, int k) {
        const Field component[3] = {u, v, w};
        const Field start[3] = {start_u, start_v, start_w};
        int idx[3] = {i, j, k};
        for (int c = 0; c < components; ++c) {
          const Field f = component[c];
          if (c == a) {
            if (!set_normal) continue;
            idx[a] = normal_face;
            Real value = 0;
            if (rule.from_values && rule.type == BoundaryType::inflow) {
              value = values(a, idx[tangent_b], idx[tangent_c]);
            } else if (rule.type == BoundaryType::inflow) {
              value = rule.wall_velocity[a] * inflow_profile(rule, geo, idx);
            } else if (rule.type == BoundaryType::outflow) {
              int inner[3] = {idx[0], idx[1], idx[2]};
              inner[a] = adjacent_face;
              const Real interior = f(inner[0], inner[1], inner[2]);
              if (rule.outflow == config::OutflowType::zero_gradient) {
                value = interior;
              } else {
                const Real current = f(idx[0], idx[1], idx[2]);
                value = current - convective_step * (current - interior);
                if (blend != 0) value += blend * (start[c](idx[0], idx[1], idx[2]) - current);
              }
            }
            f(idx[0], idx[1], idx[2]) = value;
          } else {
            idx[a] = interior_cell;
            const Real interior = f(idx[0], idx[1], idx[2]);
            idx[a] = ghost_cell;
            Real value = -interior;
            if (rule.from_values) {
              value = 2 * values(c, idx[tangent_b], idx[tangent_c]) - interior;
            } else if (rule.type == BoundaryType::moving_wall) {
              value = 2 * rule.wall_velocity[c] - interior;
            } else if (rule.type == BoundaryType::free_slip || rule.type == BoundaryType::outflow) {
              value = interior;
            }
            f(idx[0], idx[1], idx[2]) = value;
          }
        }
      });
}

}  // namespace

VelocityBoundary::VelocityBoundary(const config::BoundaryConfig& config, const grid::Decomposition& decomp,
                                   const fields::LocalShape& shape, const config::Constants& constants)
    : decomp_(decomp), shape_(shape) {
  for (int a = 0; a < 3; ++a) origin_[a] = decomp.global.origin[a];
  for (int a = 0; a < 3; ++a) {
    if (decomp.global.periodic[a]) continue;
    for (int side = 0; side < 2; ++side) {
      const auto& face = config.face(a, side);
      const bool convective = face.type == BoundaryType::outflow && face.outflow == config::OutflowType::convective;
      if (convective) convective_faces_.push_back(2 * a + side);
      corrected_[a][side] = face.type == BoundaryType::outflow;
      if (!decomp.on_boundary(a, side)) continue;
      FaceRule rule;
      rule.axis = a;
      rule.side = side;
      rule.type = face.type;
      rule.outflow = face.outflow;
      rule.parabolic = face.profile == config::InflowProfile::parabolic;
      for (int c = 0; c < 3; ++c) rule.wall_velocity[c] = face.velocity[c];
      FaceExpressions given;
      for (const auto& text : face.velocity_expressions) {
        given.components.emplace_back(text, constants);
        given.when.unsteady = given.when.unsteady || given.components.back().uses("t");
      }
      if (!given.components.empty()) {
        rule.from_values = true;
        given.values = FaceValues("boundary::face_values", 3, shape.extent((a + 1) % 3), shape.extent((a + 2) % 3));
      }
      rules_.push_back(rule);
      expressions_.push_back(std::move(given));
    }
  }
}

void VelocityBoundary::evaluate(const FaceRule& rule, FaceExpressions& face, double t) const {
  auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), face.values);
  const int a = rule.axis, b = (a + 1) % 3, c = (a + 2) % 3, g = shape_.ghost;
  const auto& global = decomp_.global;
  for (int comp = 0; comp < static_cast<int>(face.components.size()); ++comp) {
    for (int p = 0; p < static_cast<int>(host.extent(1)); ++p) {
      for (int q = 0; q < static_cast<int>(host.extent(2)); ++q) {
        int idx[3];
        idx[b] = p;
        idx[c] = q;
        double x[3];
        x[a] = origin_[a] + (rule.side == 0 ? 0.0 : global.length[a]);
        for (const int t_axis : {b, c}) {
          // Along the component's own axis its faces, elsewhere the cell centres.
          x[t_axis] = global.position(t_axis, decomp_.offset[t_axis] + idx[t_axis] - g, t_axis == comp);
        }
        host(comp, p, q) = face.components[comp](x[0], x[1], x[2], t);
      }
    }
  }
  Kokkos::deep_copy(face.values, host);
  face.when.mark(t);
}

void VelocityBoundary::set_time(double t) {
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    auto& face = expressions_[r];
    if (face.components.empty() || !face.when.stale(t)) continue;
    evaluate(rules_[r], face, t);
  }
}

void VelocityBoundary::apply(const fields::FlowState& state, Real stage_dt) const {
  fill(state, true, stage_dt, 0, {});
}

void VelocityBoundary::apply(const fields::FlowState& state, Real stage_dt, Real start_weight,
                             const fields::FaceVector& start) const {
  require(start_weight == 0 || start.u.is_allocated(), "velocity boundary: a start weight needs the start velocity");
  fill(state, true, stage_dt, start_weight, start);
}

void VelocityBoundary::apply_tangential(const fields::FlowState& state) const { fill(state, false, 0, 0, {}); }

void VelocityBoundary::fill(const fields::FlowState& state, bool set_normal, Real stage_dt, Real start_weight,
                            const fields::FaceVector& start) const {
  ProfileGeometry geo{};
  for (int a = 0; a < 3; ++a) {
    geo.cells[a] = decomp_.global.cells[a];
    geo.offset[a] = decomp_.offset[a];
    geo.bounded[a] = !decomp_.global.periodic[a];
  }
  geo.ghost = shape_.ghost;
  const int components = decomp_.global.dim == 3 ? 3 : 2;
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    const auto& rule = rules_[r];
    require(!rule.from_values || expressions_[r].when.evaluated,
            "velocity boundary: a face given by expressions is applied before set_time evaluated it");
    apply_face(rule, expressions_[r].values, geo, state, components, set_normal, {stage_dt, start_weight, start},
               1 / decomp_.global.width(rule.axis, rule.side == 0 ? 0 : decomp_.global.cells[rule.axis] - 1));
  }
}

void VelocityBoundary::update_convective_velocity(const fields::FlowState& state, const parallel::Reducer& reducer) {
  if (convective_faces_.empty()) return;
  std::array<Real, 6> flux{};
  const fields::LocalShape& s = shape_;
  const int g = s.ghost;
  for (const auto& rule : rules_) {
    if (rule.type != BoundaryType::outflow || rule.outflow != config::OutflowType::convective) continue;
    const int a = rule.axis;
    const Field f = a == 0 ? state.u : (a == 1 ? state.v : state.w);
    Int3 lo{g, g, g};
    Int3 hi{g + s.cells[0], g + s.cells[1], g + s.cells[2]};
    lo[a] = rule.side == 0 ? g - 1 : g + s.cells[a] - 1;
    hi[a] = lo[a] + 1;
    Real sum = 0;
    Kokkos::parallel_reduce(
        "boundary::outflow_flux", grid::box(lo, hi),
        KOKKOS_LAMBDA(int i, int j, int k, Real& local) { local += f(i, j, k); }, sum);
    flux[2 * a + rule.side] = sum;
  }
  flux = reducer.allreduce(flux, parallel::ReduceOp::sum);
  for (auto& rule : rules_) {
    if (rule.type != BoundaryType::outflow || rule.outflow != config::OutflowType::convective) continue;
    long long face_cells = 1;
    for (int t = 0; t < 3; ++t) {
      if (t != rule.axis) face_cells *= decomp_.global.cells[t];
    }
    const Real mean = flux[2 * rule.axis + rule.side] / static_cast<Real>(face_cells);
    const Real outward = rule.side == 0 ? -mean : mean;
    rule.convective_velocity = outward > 0 ? outward : 0;
  }
}

}  // namespace eddy::boundary
