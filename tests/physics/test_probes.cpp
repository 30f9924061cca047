// Point probes: exact for fields linear in x, y, z wherever their stencils lie inside the domain (a multilinear
// interpolation), the same on 1, 2 and 4 ranks (each node is counted on the rank that owns it), and on the surface of
// a body the pressure is the linear field's surface value, taken from the fluid side only (the values inside the solid
// and in the layer of cells the forcing sets are made wild on purpose), and the velocity is zero.
#include "../flow/flow_test_support.hpp"
#include "grid/global_grid.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/reducer.hpp"
#include "physics/body_geometry.hpp"
#include "physics/field_expression.hpp"
#include "physics/immersed_boundary.hpp"
#include "physics/probes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using eddy::Real;

const char* const linear[4] = {"0.3 + 2*x - y + 0.5*z", "-1 + x + 3*y - z", "2 - x + y + 4*z", "5 + 7*x - 3*y + 2*z"};

double linear_value(int f, const double x[3]) {
  const double c[4][4] = {{0.3, 2, -1, 0.5}, {-1, 1, 3, -1}, {2, -1, 1, 4}, {5, 7, -3, 2}};
  return c[f][0] + c[f][1] * x[0] + c[f][2] * x[1] + c[f][3] * x[2];
}

// The probes' samples of the linear fields on the deck's grid, named as Probes names them. With `solid_garbage`,
// every face and centre inside a body holds 1e6 instead.
std::vector<eddy::NamedValue> sample_linear_fields(const eddy::config::Deck& deck, bool solid_garbage) {
  eddy::parallel::Context world;
  const auto decomp = eddy::grid::decompose(eddy::grid::global_grid(deck), world.comm());
  const auto shape = eddy::fields::local_shape(decomp, 1);
  const auto grid = eddy::operators::make_staggered_grid(decomp, shape);
  auto state = eddy::fields::FlowState::allocate(shape);
  const eddy::Field fields[4] = {state.u, state.v, state.w, state.p};
  for (int f = 0; f < 4; ++f) {
    const eddy::config::Expression expression(linear[f], {});
    eddy::physics::fill_from_expression(expression, "test", decomp, fields[f], f, shape.ghost, world.comm());
    if (!solid_garbage) continue;
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[f]);
    for (int k = 0; k < shape.extent(2); ++k) {
      for (int j = 0; j < shape.extent(1); ++j) {
        for (int i = 0; i < shape.extent(0); ++i) {
          const int idx[3] = {i, j, k};
          Real x[3] = {0, 0, 0};
          for (int a = 0; a < deck.domain.dimensions; ++a) {
            const Real shift = a == f ? 1 : 0.5;
            x[a] = deck.domain.origin[a] + (decomp.offset[a] + idx[a] - shape.ghost + shift) * decomp.global.spacing(a);
          }
          for (const auto& body : deck.bodies) {
            if (eddy::physics::signed_distance(eddy::physics::body_geometry(body, deck.domain.dimensions), x) < 0)
              host(i, j, k) = 1e6;
          }
        }
      }
    }
    if (f == 3) {  // and in the cells along the surface whose pressure the forcing sets
      const auto forced = eddy::physics::forced_cells(deck, decomp);
      std::size_t cell = 0;
      for (int k = 0; k < decomp.local_cells[2]; ++k) {
        for (int j = 0; j < decomp.local_cells[1]; ++j) {
          for (int i = 0; i < decomp.local_cells[0]; ++i, ++cell) {
            if (forced[cell]) host(i + shape.ghost, j + shape.ghost, k + shape.ghost) = 1e6;
          }
        }
      }
    }
    Kokkos::deep_copy(fields[f], host);
  }
  eddy::parallel::Reducer reducer(world, eddy::parallel::Transport::mpi);
  const eddy::physics::Probes probes(deck, deck.probes, decomp, grid, {});
  std::vector<eddy::NamedValue> samples;
  probes.sample(state, {}, reducer, samples);
  return samples;
}

double sample(const std::vector<eddy::NamedValue>& samples, const std::string& name) {
  for (const auto& s : samples) {
    if (s.name == name) return s.value;
  }
  ADD_FAILURE() << "no sample " << name;
  return 0;
}

// With `stretched`, y clusters towards both ends and z (3D) towards its low end: the stencils follow the cells.
void expect_linear_fields_exact(int dims, bool stretched = false) {
  auto deck = eddy::testing::periodic_box_deck(dims, 16);
  deck.domain.length = {1.0, 0.75, dims == 3 ? 1.25 : 1.0 / 16};
  deck.domain.origin = {-0.2, 0.1, 0.3};
  if (stretched) {
    deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;
    deck.domain.stretching[1] = {eddy::config::Clustering::both, 2.0, 0, {}, ""};
    if (dims == 3) deck.domain.stretching[2] = {eddy::config::Clustering::low, 1.5, 0, {}, ""};
  }
  const double points[3][3] = {{0.113, 0.377, 0.91}, {-0.05, 0.6, 1.2}, {0.61, 0.21, 0.52}};
  for (int n = 0; n < 3; ++n) {
    eddy::config::ProbeConfig probe;
    probe.name = "p" + std::to_string(n);
    probe.at = {points[n][0], points[n][1], points[n][2]};
    deck.probes.push_back(probe);
  }
  const auto samples = sample_linear_fields(deck, false);
  const char* const names[4] = {"u", "v", "w", "p"};
  for (int n = 0; n < 3; ++n) {
    double x[3] = {points[n][0], points[n][1], dims == 3 ? points[n][2] : 0};
    for (int f = 0; f < 4; ++f) {
      if (f == 2 && dims == 2) continue;
      // In 2D the fields were filled at the middle of the one cell's depth (or its high face for w).
      if (dims == 2) x[2] = deck.domain.origin[2] + 0.5 * deck.domain.length[2];
      EXPECT_NEAR(sample(samples, "p" + std::to_string(n) + "_" + names[f]), linear_value(f, x), 1e-12)
          << "probe " << n << " field " << names[f];
    }
  }
}

TEST(Probes, LinearFieldsAreInterpolatedExactly2D) { expect_linear_fields_exact(2); }

TEST(Probes, LinearFieldsAreInterpolatedExactly3D) { expect_linear_fields_exact(3); }

TEST(Probes, LinearFieldsAreInterpolatedExactlyOnStretchedGrids) {
  expect_linear_fields_exact(2, true);
  expect_linear_fields_exact(3, true);
}

TEST(Probes, OnABodysSurfaceThePressureComesFromTheFluidAndTheVelocityIsZero) {
  auto deck = eddy::testing::periodic_box_deck(2, 64);
  deck.domain.length = {1, 1, 1.0 / 64};
  eddy::config::BodyConfig disk;
  disk.name = "disk";
  disk.center = {0.43, 0.52, 0};
  disk.radius = 0.21;
  deck.bodies = {disk};
  const double angles[3] = {0.0, 2.0, 4.1};
  for (int n = 0; n < 3; ++n) {
    eddy::config::ProbeConfig probe;
    probe.name = "s" + std::to_string(n);
    probe.at = {0.43 + 0.21 * std::cos(angles[n]), 0.52 + 0.21 * std::sin(angles[n]), 0};
    deck.probes.push_back(probe);
  }
  eddy::config::ProbeConfig centre;
  centre.name = "inside";
  centre.at = {0.45, 0.5, 0};  // deep in the disk: the surface point straight out along the normal
  deck.probes.push_back(centre);
  const auto samples = sample_linear_fields(deck, true);
  for (int n = 0; n < 3; ++n) {
    const double x[3] = {deck.probes[n].at[0], deck.probes[n].at[1], 0.5 / 64};
    EXPECT_NEAR(sample(samples, "s" + std::to_string(n) + "_p"), linear_value(3, x), 1e-9) << "surface point " << n;
    EXPECT_NEAR(sample(samples, "s" + std::to_string(n) + "_u"), 0, 1e-9);
    EXPECT_NEAR(sample(samples, "s" + std::to_string(n) + "_v"), 0, 1e-9);
  }
  const double dx = 0.45 - 0.43, dy = 0.5 - 0.52, r = std::sqrt(dx * dx + dy * dy);
  const double surface[3] = {0.43 + 0.21 * dx / r, 0.52 + 0.21 * dy / r, 0.5 / 64};
  EXPECT_NEAR(sample(samples, "inside_p"), linear_value(3, surface), 1e-6);
  EXPECT_EQ(sample(samples, "inside_u"), 0.0);
}

}  // namespace
