// Flows on stretched grids against exact solutions: the 2D Taylor-Green vortex on a box whose cells cluster towards
// both ends of each axis (five times narrower there than in the middle), and the laminar channel driven at constant
// flow rate on walls clustered like a turbulent channel's; both converge at second order. The kinetic energy of an
// inviscid flow is conserved by the skew-symmetric advection of the stretched grid as of the uniform one; conduction
// across stretched wall cells gives the exact Nusselt number.
#include "flow_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using eddy::testing::gather;
using eddy::testing::GlobalField;
using eddy::testing::observed_order;

eddy::config::Deck stretched_taylor_green(int n, double viscosity, double end_time) {
  auto deck = eddy::testing::periodic_box_deck(2, n);
  deck.physics.viscosity = viscosity;
  deck.initial.type = eddy::config::InitialType::taylor_green;
  deck.initial.amplitude = 1;
  deck.time.end_time = end_time;
  deck.time.cfl = 0.2;
  deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;
  deck.pressure.rtol = 1e-11;
  deck.pressure.max_iterations = 100;
  for (int a = 0; a < 2; ++a) {
    deck.domain.stretching[a].cluster = eddy::config::Clustering::both;
    deck.domain.stretching[a].factor = 1.5;
  }
  return deck;
}

// With both axes stretched, no axis is left to split (lines do not cross ranks): those cases run on one rank.
bool on_one_rank() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size == 1;
}

// Max error of u and v on their faces against u = sin x cos y exp(-2 nu t), at the faces' own positions.
double taylor_green_error(const eddy::time::Simulation& sim, double viscosity) {
  const auto& g = sim.decomposition().global;
  const GlobalField u = gather(sim, 0), v = gather(sim, 1);
  const double decay = std::exp(-2 * viscosity * sim.time());
  double error = 0;
  for (int j = 0; j < g.cells[1]; ++j) {
    for (int i = 0; i < g.cells[0]; ++i) {
      const double xf = g.face(0, i + 1), xc = g.centre(0, i), yf = g.face(1, j + 1), yc = g.centre(1, j);
      error = std::max(error, std::abs(u(i, j, 0) - std::sin(xf) * std::cos(yc) * decay));
      error = std::max(error, std::abs(v(i, j, 0) + std::cos(xc) * std::sin(yf) * decay));
    }
  }
  return error;
}

TEST(StretchedGrid, TaylorGreenConvergesAtSecondOrder) {
  if (!on_one_rank()) GTEST_SKIP() << "both axes are stretched: one rank only";
  std::vector<double> errors;
  for (const int n : {16, 32}) {
    const auto deck = stretched_taylor_green(n, 0.01, 1.0);
    eddy::parallel::Context context;
    eddy::time::Simulation sim(deck, context, {"", true});
    const auto& g = sim.decomposition().global;
    EXPECT_GE(g.width(0, n / 2) / g.smallest_width(0), 4.0);  // strongly stretched
    sim.advance(deck.time.max_steps);
    EXPECT_LT(sim.history().back().max_divergence, 1e-8);
    errors.push_back(taylor_green_error(sim, 0.01));
  }
  EXPECT_GE(observed_order(errors[0], errors[1]), 1.8) << errors[0] << " " << errors[1];
}

TEST(StretchedGrid, InviscidFlowConservesKineticEnergy) {
  if (!on_one_rank()) GTEST_SKIP() << "both axes are stretched: one rank only";
  auto deck = stretched_taylor_green(32, 0, 2.0);
  deck.initial.type = eddy::config::InitialType::random;
  deck.initial.amplitude = 1;
  deck.time.cfl = 0.1;
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  const auto& history = sim.history();
  const double first = history.front().kinetic_energy, last = history.back().kinetic_energy;
  // Only the time integration dissipates (RK3, third order in dt): the energy is kept to 1e-3 over the run.
  EXPECT_LT(std::abs(last - first) / first, 1e-3) << first << " " << last;
}

// The laminar channel between walls at y = -1 and 1, clustered towards both, driven at bulk velocity 1: the pressure
// gradient converges to 3 nu U_b / h^2 and the profile to u = 1.5 (1 - y^2).
std::pair<double, double> channel_errors(int ny) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(2, ny);
  deck.domain.cells = {4, ny, 1};
  deck.domain.length = {0.5, 2.0, 1.0};
  deck.domain.origin = {0, -1, 0};
  deck.domain.stretching[1].cluster = eddy::config::Clustering::both;
  deck.domain.stretching[1].factor = 2;
  deck.boundary.faces[2].type = deck.boundary.faces[3].type = eddy::config::BoundaryType::no_slip;
  deck.physics.viscosity = 1;
  deck.physics.drive = {eddy::config::DriveType::flow_rate, 0, 1.0};
  deck.initial.type = eddy::config::InitialType::uniform;
  deck.initial.velocity = {1, 0, 0};
  deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;
  deck.time.viscous_safety = 1.0;
  deck.time.end_time = 5;  // the slowest transient has decayed by exp(-pi^2 nu t / 4) = 4e-6
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  double gradient = 0;
  for (const auto& value : sim.history().back().extra) {
    if (value.name == "drive_pressure_gradient") gradient = value.value;
  }
  const auto u = gather(sim, 0);
  const auto& g = sim.decomposition().global;
  double profile = 0;
  for (int j = 0; j < ny; ++j) {
    const double y = g.centre(1, j);
    profile = std::max(profile, std::abs(u(1, j, 0) - 1.5 * (1 - y * y)));
  }
  return {std::abs(gradient - 3.0), profile};
}

TEST(StretchedGrid, LaminarChannelConvergesAtSecondOrder) {
  const auto coarse = channel_errors(8), fine = channel_errors(16);
  EXPECT_GE(observed_order(coarse.first, fine.first), 1.8) << coarse.first << " " << fine.first;
  EXPECT_GE(observed_order(coarse.second, fine.second), 1.8) << coarse.second << " " << fine.second;
  EXPECT_LT(fine.first, 0.06);
}

// Conduction between walls at y = 0 (value 1) and y = 1 (value 0), the cells clustered towards the low one, at rest:
// the discrete steady profile is the linear one on any grid, so the Nusselt numbers of both walls are 1 and the mean by
// volume is 1/2 (the mean over the cells, most of them near the hot wall, is not).
TEST(StretchedGrid, ConductionAcrossStretchedCellsHasNusseltOne) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(2, 16);
  deck.domain.cells = {4, 16, 1};
  deck.domain.length = {0.25, 1.0, 1.0};
  deck.domain.stretching[1].cluster = eddy::config::Clustering::low;
  deck.domain.stretching[1].factor = 2;
  deck.boundary.faces[2].type = deck.boundary.faces[3].type = eddy::config::BoundaryType::no_slip;
  deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;
  deck.physics.viscosity = 1;
  eddy::config::ScalarConfig temperature;
  temperature.diffusivity = 1;
  for (int f = 0; f < 2; ++f) temperature.boundary[f].type = eddy::config::ScalarBoundaryType::periodic;
  temperature.boundary[2] = {eddy::config::ScalarBoundaryType::value, 1, ""};
  temperature.boundary[3] = {eddy::config::ScalarBoundaryType::value, 0, ""};
  deck.scalars.push_back(temperature);
  deck.time.viscous_safety = 1.0;
  deck.time.end_time = 2.5;  // the slowest transient has decayed by exp(-pi^2 t) = 2e-11
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  int found = 0;
  for (const auto& value : sim.history().back().extra) {
    if (value.name.find("_nusselt_y_") != std::string::npos) {
      EXPECT_NEAR(value.value, 1.0, 1e-8) << value.name;
      ++found;
    }
    if (value.name == "temperature_mean") {
      EXPECT_NEAR(value.value, 0.5, 1e-8);
    }
  }
  EXPECT_EQ(found, 2);
}

}  // namespace
