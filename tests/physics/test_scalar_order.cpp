// A sine advected by a uniform flow and diffusing in a periodic box, c = exp(-2 kappa t) sin(x - U t) sin(y - V t),
// converges at second order in space with central fluxes (first with upwind fluxes), under either RK3.
#include "../flow/flow_test_support.hpp"
#include "physics/coupled_physics.hpp"

#include <gtest/gtest.h>

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
    eddy::parallel::Context context;
    eddy::time::Simulation sim(deck, context, {"", true});
    sim.advance(deck.time.max_steps);
    const auto values = eddy::testing::gather(sim.scalar_fields().at(0).field, sim.decomposition(), 1);
    errors[n] = std::abs(values(2, 6, 0) - (0.5 + std::sin(1.0)));
  }
  EXPECT_LT(errors[0], 1e-4);
  EXPECT_GE(eddy::testing::observed_order(errors[0], errors[1]), 2.8) << errors[0] << " " << errors[1];
}
