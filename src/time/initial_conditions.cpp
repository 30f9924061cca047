#include "time/initial_conditions.hpp"

#include "grid/index_ranges.hpp"
#include "physics/field_expression.hpp"

#include <string>

namespace eddy::time {
namespace {

// Global geometry of the face families, copied into kernels.
struct FaceGeometry {
  int offset[3];
  int cells[3];
  Real spacing[3];
  int ghost;
};

FaceGeometry face_geometry(const grid::Decomposition& decomp, int ghost) {
  FaceGeometry geo{};
  for (int a = 0; a < 3; ++a) {
    geo.offset[a] = decomp.offset[a];
    geo.cells[a] = decomp.global.cells[a];
    geo.spacing[a] = decomp.global.spacing(a);
  }
  geo.ghost = ghost;
  return geo;
}

// Position (relative to the origin) of the face of component `c` at view index (i, j, k): at the high side of its
// cell along c, at the cell centre along the other axes.
KOKKOS_INLINE_FUNCTION void face_position(const FaceGeometry& geo, int c, const int idx[3], Real x[3]) {
  for (int a = 0; a < 3; ++a) {
    const Real shift = a == c ? Real(1) : Real(0.5);
    x[a] = (geo.offset[a] + idx[a] - geo.ghost + shift) * geo.spacing[a];
  }
}

// The face's index in the global grid, the same on any rank count.
KOKKOS_INLINE_FUNCTION long long global_face(const FaceGeometry& geo, const int idx[3]) {
  long long global = 0;
  for (int a = 2; a >= 0; --a) global = global * geo.cells[a] + (geo.offset[a] + idx[a] - geo.ghost);
  return global;
}

// initial.noise: a seeded perturbation in [-noise, noise] on every owned face.
void add_noise(const config::InitialConfig& initial, const grid::Decomposition& decomp,
               const fields::FlowState& state) {
  const FaceGeometry geo = face_geometry(decomp, state.shape.ghost);
  const Field velocity[3] = {state.u, state.v, state.w};
  const Real noise = initial.noise;
  const unsigned long long seed = initial.seed;
  for (int c = 0; c < (decomp.global.dim == 3 ? 3 : 2); ++c) {
    const Field f = velocity[c];
    Kokkos::parallel_for(
        "initial::noise", grid::owned_cells(state.shape), KOKKOS_LAMBDA(int i, int j, int k) {
          const int idx[3] = {i, j, k};
          f(i, j, k) += noise * face_hash(global_face(geo, idx), seed + 1, c);
        });
  }
}

void set_built_in_velocity(const config::Deck& deck, const grid::Decomposition& decomp, const fields::FlowState& state);

}  // namespace

void set_initial_velocity(const config::Deck& deck, const grid::Decomposition& decomp, const fields::FlowState& state,
                          MPI_Comm comm) {
  const auto& initial = deck.initial;
  Kokkos::deep_copy(state.u, 0);
  Kokkos::deep_copy(state.v, 0);
  Kokkos::deep_copy(state.w, 0);
  Kokkos::deep_copy(state.p, 0);
  const int components = decomp.global.dim == 3 ? 3 : 2;
  if (initial.type == config::InitialType::expression) {
    const Field velocity[3] = {state.u, state.v, state.w};
    for (int c = 0; c < components; ++c) {
      const config::Expression expression(initial.velocity_expressions[c], deck.constants);
      physics::fill_from_expression(expression, "initial.velocity[" + std::to_string(c) + "]", decomp, velocity[c], c,
                                    state.shape.ghost, comm);
    }
  } else if (initial.type == config::InitialType::taylor_green && decomp.global.stretched()) {
    // The positions of a stretched grid's faces are known on the host: the vortex as an expression there.
    const auto& o = decomp.global.origin;
    const config::Constants constants{{"A", initial.amplitude}, {"x0", o[0]}, {"y0", o[1]}, {"z0", o[2]}};
    const std::string z_factor = components == 3 ? " * cos(z - z0)" : "";
    const std::string text[2] = {"A * sin(x - x0) * cos(y - y0)" + z_factor,
                                 "-A * cos(x - x0) * sin(y - y0)" + z_factor};
    const Field velocity[2] = {state.u, state.v};
    for (int c = 0; c < 2; ++c) {
      physics::fill_from_expression(config::Expression(text[c], constants), "initial.type", decomp, velocity[c], c,
                                    state.shape.ghost, comm);
    }
  } else {
    set_built_in_velocity(deck, decomp, state);
  }
  if (initial.noise > 0) add_noise(initial, decomp, state);
}

namespace {

void set_built_in_velocity(const config::Deck& deck, const grid::Decomposition& decomp,
                           const fields::FlowState& state) {
  const auto& initial = deck.initial;
  const int components = decomp.global.dim == 3 ? 3 : 2;
  const FaceGeometry geo = face_geometry(decomp, state.shape.ghost);
  const bool three_d = components == 3;
  const Field velocity[3] = {state.u, state.v, state.w};
  const auto type = initial.type;
  const Real amplitude = initial.amplitude;
  const unsigned long long seed = initial.seed;
  for (int c = 0; c < components; ++c) {
    const Field f = velocity[c];
    const Real base = initial.velocity[c];
    Kokkos::parallel_for(
        "initial::velocity", grid::owned_cells(state.shape), KOKKOS_LAMBDA(int i, int j, int k) {
          const int idx[3] = {i, j, k};
          Real value = 0;
          if (type == config::InitialType::uniform) {
            value = base;
          } else if (type == config::InitialType::random) {
            value = base + amplitude * face_hash(global_face(geo, idx), seed, c);
          } else if (type == config::InitialType::taylor_green) {
            Real x[3];
            face_position(geo, c, idx, x);
            const Real z_factor = three_d ? Kokkos::cos(x[2]) : Real(1);
            if (c == 0) value = amplitude * Kokkos::sin(x[0]) * Kokkos::cos(x[1]) * z_factor;
            if (c == 1) value = -amplitude * Kokkos::cos(x[0]) * Kokkos::sin(x[1]) * z_factor;
          }
          f(i, j, k) = value;
        });
  }
}

}  // namespace

void set_initial_pressure(const config::Deck& deck, const grid::Decomposition& decomp, const fields::FlowState& state,
                          MPI_Comm comm) {
  Kokkos::deep_copy(state.p, 0);
  if (deck.initial.type != config::InitialType::expression) return;
  const config::Expression expression(deck.initial.pressure_expression, deck.constants);
  physics::fill_from_expression(expression, "initial.pressure", decomp, state.p, physics::cell_centres,
                                state.shape.ghost, comm);
}

}  // namespace eddy::time
