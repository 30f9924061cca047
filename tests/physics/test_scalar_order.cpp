// A sine advected by a uniform flow and diffusing in a periodic box, c = exp(-2 kappa t) sin(x - U t) sin(y - V t),
// converges at second order in space with central fluxes (first with upwind fluxes), under either RK3.
#include "../flow/flow_test_support.hpp"
#include "physics/coupled_physics.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

using eddy::Field;
using eddy::Real;

constexpr double speed_x = 1.0, speed_y = 0.5, diffusivity = 0.05, end_time = 0.5;

double exact(double x, double y, double t) {
  return std::exp(-2 * diffusivity * t) * std::sin(x - speed_x * t) * std::sin(y - speed_y * t);
}

// Max error of the scalar at end_time on an n x n grid.
double scalar_error(int n, eddy::config::AdvectionScheme scheme,
                    eddy::config::TimeScheme integrator = eddy::config::TimeScheme::rk3) {
  auto deck = eddy::testing::periodic_box_deck(2, n);
  deck.time.scheme = integrator;
  deck.initial.type = eddy::config::InitialType::uniform;
  deck.initial.velocity = {speed_x, speed_y, 0};
  deck.numerics.advection = scheme;
  deck.time.end_time = end_time;
  deck.time.cfl = 0.4;
  deck.physics.viscosity = 0.01;
  eddy::config::ScalarConfig dye;
  dye.name = "dye";
  dye.diffusivity = diffusivity;
  for (auto& face : dye.boundary) face.type = eddy::config::ScalarBoundaryType::periodic;
  deck.scalars.push_back(dye);
  eddy::parallel::Context world;
  eddy::time::Simulation sim(deck, world, {"", true});
  const auto& decomp = sim.decomposition();
  const int g = sim.state().shape.ghost;
  const double h = decomp.global.spacing(0);
  // The exact initial field on every point, ghosts included (they are its periodic images).
  const Field c = sim.physics().scalars().field(0);
  auto host = Kokkos::create_mirror_view(c);
  for (int j = 0; j < static_cast<int>(c.extent(1)); ++j) {
    for (int i = 0; i < static_cast<int>(c.extent(0)); ++i) {
      const double x = (decomp.offset[0] + i - g + 0.5) * h, y = (decomp.offset[1] + j - g + 0.5) * h;
      for (int k = 0; k < static_cast<int>(c.extent(2)); ++k) host(i, j, k) = exact(x, y, 0);
    }
  }
  Kokkos::deep_copy(c, host);
  while (!sim.finished()) sim.advance(1);
  const auto field = eddy::testing::gather(c, decomp, g);
  double error = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      error = std::max(error, std::abs(field(i, j, 0) - exact((i + 0.5) * h, (j + 0.5) * h, sim.time())));
    }
  }
  return error;
}

TEST(ScalarTransport, CentralFluxesConvergeAtSecondOrder) {
  const double coarse = scalar_error(16, eddy::config::AdvectionScheme::central);
  const double medium = scalar_error(32, eddy::config::AdvectionScheme::central);
  const double fine = scalar_error(64, eddy::config::AdvectionScheme::central);
  EXPECT_GE(eddy::testing::observed_order(coarse, medium), 1.9) << coarse << " " << medium;
  EXPECT_GE(eddy::testing::observed_order(medium, fine), 1.9) << medium << " " << fine;
  EXPECT_LT(fine, 2e-3);
}

TEST(ScalarTransport, CentralFluxesConvergeAtSecondOrderUnderTheSspRk3) {
  using eddy::config::AdvectionScheme;
  using eddy::config::TimeScheme;
  const double coarse = scalar_error(16, AdvectionScheme::central, TimeScheme::ssp_rk3);
  const double medium = scalar_error(32, AdvectionScheme::central, TimeScheme::ssp_rk3);
  EXPECT_GE(eddy::testing::observed_order(coarse, medium), 1.9) << coarse << " " << medium;
  EXPECT_LT(medium, 8e-3);
}

TEST(ScalarTransport, UpwindFluxesConvergeAtFirstOrder) {
  const double coarse = scalar_error(32, eddy::config::AdvectionScheme::upwind);
  const double fine = scalar_error(64, eddy::config::AdvectionScheme::upwind);
  const double order = eddy::testing::observed_order(coarse, fine);
  EXPECT_GE(order, 0.8);
  EXPECT_LE(order, 1.3);
}

}  // namespace

// A source cos(t) (scalars[].source) raises a uniform scalar in a periodic box at rest to c0 + sin(t), each stage's
// source taken at its own time: the error at t = 1 falls eightfold when dt halves (third order).
TEST(ScalarOrder, SourcesAreTakenAtEachStagesTime) {
  double errors[2];
  for (int n = 0; n < 2; ++n) {
    auto deck = eddy::testing::periodic_box_deck(2, 8);
    deck.physics.viscosity = 0.01;
    eddy::config::ScalarConfig dye;
    dye.name = "dye";
    dye.diffusivity = 0.01;
    dye.initial.value = 0.5;
    dye.source = "cos(t)";
    deck.scalars = {dye};
    deck.time.adaptive = false;
    deck.time.dt = n == 0 ? 0.1 : 0.05;
    deck.time.end_time = 1;
    const auto values = eddy::testing::run_to_end(deck, [](const auto& sim) {
      return eddy::testing::gather(sim.scalar_fields().at(0).field, sim.decomposition(), 1);
    });
    errors[n] = std::abs(values(2, 6, 0) - (0.5 + std::sin(1.0)));
  }
  EXPECT_LT(errors[0], 1e-4);
  EXPECT_GE(eddy::testing::observed_order(errors[0], errors[1]), 2.8) << errors[0] << " " << errors[1];
}

namespace {

// A scalar at rest between walls, periodic along x over 2, its y_low wall held at an expression: sin(pi x) (steady;
// the field decays to sin(pi x) sinh(pi (1 - y)) / sinh(pi)) or sin(t) (the wall's value follows t).
std::unique_ptr<eddy::time::Simulation> wall_value_run(int n, const std::string& wall, double end_time,
                                                       eddy::parallel::Context& world) {
  auto deck = eddy::testing::periodic_box_deck(2, n);
  deck.domain.cells = {2 * n, n, 1};
  deck.domain.length = {2, 1, 1};
  deck.boundary.faces[2].type = deck.boundary.faces[3].type = eddy::config::BoundaryType::no_slip;
  deck.physics.viscosity = 1;  // the step's diffusion limit then holds for the scalar's too
  eddy::config::ScalarConfig heat;
  heat.name = "heat";
  heat.diffusivity = 1;
  heat.boundary[2] = {eddy::config::ScalarBoundaryType::value, 0, wall};
  heat.boundary[3] = {eddy::config::ScalarBoundaryType::value, 0, ""};
  deck.scalars = {heat};
  deck.time.viscous_safety = 1.0;
  deck.time.end_time = end_time;
  auto sim = std::make_unique<eddy::time::Simulation>(deck, world, eddy::time::RunOptions{"", true});
  sim->advance(deck.time.max_steps);
  return sim;
}

}  // namespace

// Wall values from expressions: the steady field converges at second order, and a value that reads t holds on the
// wall (the mean of ghost and first cell) at the end of the last stage.
TEST(ScalarOrder, WallValuesFromExpressions) {
  eddy::parallel::Context world;
  double errors[2];
  for (int r = 0; r < 2; ++r) {
    const int n = 16 << r;
    const auto sim = wall_value_run(n, "sin(pi*x)", 1.0, world);
    const auto heat = eddy::testing::gather(sim->scalar_fields().at(0).field, sim->decomposition(), 1);
    const double pi = 3.14159265358979323846, h = 1.0 / n;
    errors[r] = 0;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < 2 * n; ++i) {
        const double x = (i + 0.5) * h, y = (j + 0.5) * h;
        const double exact = std::sin(pi * x) * std::sinh(pi * (1 - y)) / std::sinh(pi);
        errors[r] = std::max(errors[r], std::abs(heat(i, j, 0) - exact));
      }
    }
  }
  EXPECT_GE(eddy::testing::observed_order(errors[0], errors[1]), 1.8) << errors[0] << " " << errors[1];
  const auto sim = wall_value_run(8, "sin(t)", 0.37, world);
  ASSERT_NEAR(sim->time(), 0.37, 1e-12);
  const auto field = sim->scalar_fields().at(0).field;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  if (sim->decomposition().offset[1] == 0) {
    EXPECT_NEAR(0.5 * (host(3, 0, 1) + host(3, 1, 1)), std::sin(0.37), 1e-13);
  }
}
