// 2D Taylor-Green vortex on [0, 2 pi)^2 against the exact decaying solution u = sin x cos y exp(-2 nu t):
// second-order space convergence, third-order (both RK3) and first-order (Euler) time convergence, energy decay.
#include "config/load.hpp"
#include "flow_test_support.hpp"
#include "round_off.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using eddy::testing::gather;
using eddy::testing::GlobalField;
using eddy::testing::observed_order;

constexpr double viscosity = 0.01;

eddy::config::Deck taylor_green_deck(int n, double end_time) {
  auto deck = eddy::testing::periodic_box_deck(2, n);
  deck.physics.viscosity = viscosity;
  deck.initial.type = eddy::config::InitialType::taylor_green;
  deck.initial.amplitude = 1;
  deck.time.end_time = end_time;
  return deck;
}

// Max error of u and v on their faces against the exact solution at the simulation's time.
double velocity_error(const eddy::time::Simulation& sim) {
  const auto& g = sim.decomposition().global;
  const GlobalField u = gather(sim, 0), v = gather(sim, 1);
  const double decay = std::exp(-2 * viscosity * sim.time());
  const double h = g.spacing(0);
  double error = 0;
  for (int j = 0; j < g.cells[1]; ++j) {
    for (int i = 0; i < g.cells[0]; ++i) {
      const double xf = (i + 1) * h, xc = (i + 0.5) * h, yf = (j + 1) * h, yc = (j + 0.5) * h;
      error = std::max(error, std::abs(u(i, j, 0) - std::sin(xf) * std::cos(yc) * decay));
      error = std::max(error, std::abs(v(i, j, 0) + std::cos(xc) * std::sin(yf) * decay));
    }
  }
  return error;
}

TEST(TaylorGreen, SpaceConvergesAtSecondOrder) {
  std::vector<double> errors;
  for (int n : {16, 32, 64}) {
    auto deck = taylor_green_deck(n, 1.0);
    deck.time.cfl = 0.2;
    deck.time.dt = 0.01;
    eddy::parallel::Context context;
    eddy::time::Simulation sim(deck, context, {"", true});
    sim.advance(deck.time.max_steps);  // marches to end_time; run() would also write a run folder
    errors.push_back(velocity_error(sim));
  }
  EXPECT_GE(observed_order(errors[0], errors[1]), 1.9) << errors[0] << " " << errors[1];
  EXPECT_GE(observed_order(errors[1], errors[2]), 1.9) << errors[1] << " " << errors[2];
}

// Error of runs with fixed dt against a run with a much smaller dt on the same grid (so space error cancels).
std::vector<double> time_errors(eddy::config::TimeScheme scheme, const std::vector<double>& steps, double reference) {
  auto run = [&](double dt) {
    auto deck = taylor_green_deck(16, 0.5);
    eddy::testing::random_stream_by_fixed_steps(deck, {1.0, 0.5, 0.0}, 0.3, scheme, dt);
    deck.physics.viscosity = 0.05;
    eddy::parallel::Context context;
    eddy::time::Simulation sim(deck, context, {"", true});
    sim.advance(deck.time.max_steps);  // marches to end_time; run() would also write a run folder
    return std::array<GlobalField, 2>{gather(sim, 0), gather(sim, 1)};
  };
  const auto exact = run(reference);
  std::vector<double> errors;
  for (double dt : steps) {
    const auto f = run(dt);
    errors.push_back(
        std::max(eddy::testing::max_difference(f[0], exact[0]), eddy::testing::max_difference(f[1], exact[1])));
  }
  return errors;
}

TEST(TaylorGreen, Rk3IsThirdOrderInTime) {
  const auto errors = time_errors(eddy::config::TimeScheme::rk3, {0.1, 0.05, 0.025}, 0.025 / 16);
  EXPECT_GE(observed_order(errors[0], errors[1]), 2.5) << errors[0] << " " << errors[1];
  EXPECT_GE(observed_order(errors[1], errors[2]), 2.5) << errors[1] << " " << errors[2];
}

TEST(TaylorGreen, SspRk3IsThirdOrderInTime) {
  const auto errors = time_errors(eddy::config::TimeScheme::ssp_rk3, {0.1, 0.05, 0.025}, 0.025 / 16);
  EXPECT_GE(observed_order(errors[0], errors[1]), 2.5) << errors[0] << " " << errors[1];
  // In single precision the error at the finest step (about 1e-5) is round-off: the coarser pair shows the order.
  if (!eddy::testing::single_precision) {
    EXPECT_GE(observed_order(errors[1], errors[2]), 2.5) << errors[1] << " " << errors[2];
  }
}

TEST(TaylorGreen, EulerIsFirstOrderInTime) {
  const auto errors = time_errors(eddy::config::TimeScheme::euler, {0.02, 0.01, 0.005}, 0.005 / 16);
  EXPECT_NEAR(observed_order(errors[0], errors[1]), 1.0, 0.15) << errors[0] << " " << errors[1];
  EXPECT_NEAR(observed_order(errors[1], errors[2]), 1.0, 0.15) << errors[1] << " " << errors[2];
}

TEST(TaylorGreen, KineticEnergyDecaysAsExpMinusFourNuT) {
  auto deck = taylor_green_deck(32, 2.0);
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);  // marches to end_time; run() would also write a run folder
  const auto& history = sim.history();
  const double initial = M_PI * M_PI;  // 0.5 * integral of sin^2 x cos^2 y + cos^2 x sin^2 y over the box
  const double h = 2 * M_PI / 32;
  for (const auto& record : history) {
    const double exact = initial * std::exp(-4 * viscosity * record.time);
    // The discrete vortex decays with the discrete Laplacian's eigenvalue, 2 (2 - 2 cos h) / h^2 instead of 2.
    EXPECT_NEAR(record.kinetic_energy / exact, 1.0, 0.02 * h * h + 1e-8) << "t = " << record.time;
    EXPECT_LT(record.max_divergence, eddy::testing::round_off(1e-9, 1e-5));
  }
  EXPECT_NEAR(sim.time(), 2.0, 1e-12);
}

// The deck of inputs/ read from YAML (its one z cell as wide as a cell in x): the 2D kinetic energy is per unit depth,
// the same on every grid, pi^2 for the unit vortex.
TEST(TaylorGreen, KineticEnergyIn2DIsPerUnitDepthOnEveryGrid) {
  for (int n : {32, 64}) {
    const std::string cells = "domain.cells=[" + std::to_string(n) + ", " + std::to_string(n) + "]";
    const auto deck = eddy::config::load_text(
        "domain: {dimensions: 2, length: [6.283185307179586, 6.283185307179586]}\n"
        "boundary: {default: {type: periodic}}\ninitial: {type: taylor_green, amplitude: 1}\n",
        "taylor_green2d", {cells});
    eddy::parallel::Context context;
    const eddy::time::Simulation sim(deck, context, {"", true});
    EXPECT_NEAR(sim.kinetic_energy() / (M_PI * M_PI), 1.0, eddy::testing::round_off(1e-12, 1e-5)) << n << " cells";
  }
}

}  // namespace

// The vortex given as deck expressions (with a constant for its amplitude) starts from the built-in one's velocity, and
// its pressure expression, the exact pressure of the vortex at the cell centres, is the pressure the first solve
// starts from.
TEST(TaylorGreen, AnExpressionDeckStartsFromTheBuiltInVortexAndItsPressure) {
  const int n = 32;
  auto built_in = taylor_green_deck(n, 1.0);
  built_in.initial.amplitude = 0.7;
  auto expression = built_in;
  expression.constants = {{"A", 0.7}};
  expression.initial.type = eddy::config::InitialType::expression;
  expression.initial.velocity_expressions = {"A*sin(x)*cos(y)", "-A*cos(x)*sin(y)", "0"};
  expression.initial.pressure_expression = "A^2/4*(cos(2*x) + cos(2*y))";
  eddy::parallel::Context context;
  eddy::time::Simulation from_built_in(built_in, context, {"", true});
  eddy::time::Simulation from_expression(expression, context, {"", true});
  for (int c = 0; c < 2; ++c) {
    const double difference = eddy::testing::max_difference(gather(from_built_in, c), gather(from_expression, c));
    EXPECT_LE(difference, eddy::testing::round_off(1e-14, 1e-6)) << "component " << c;
  }
  const GlobalField p = gather(from_expression, 3);
  const double h = 2 * M_PI / n;
  double pressure_error = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const double exact = 0.49 / 4 * (std::cos(2 * (i + 0.5) * h) + std::cos(2 * (j + 0.5) * h));
      pressure_error = std::max(pressure_error, std::abs(p(i, j, 0) - exact));
    }
  }
  EXPECT_LE(pressure_error, eddy::testing::round_off(1e-15, 1e-6));
}

// A transported scalar given as an expression starts from its values at the cell centres.
TEST(TaylorGreen, AScalarExpressionIsItsValueAtTheCellCentres) {
  const int n = 16;
  auto deck = taylor_green_deck(n, 1.0);
  deck.constants = {{"c0", 0.25}};
  eddy::config::ScalarConfig scalar;
  scalar.name = "dye";
  scalar.diffusivity = 0.01;
  scalar.initial.type = eddy::config::ScalarInitialType::expression;
  scalar.initial.expression = "c0 + sin(x)*y";
  deck.scalars.push_back(scalar);
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  const auto dye = sim.scalar_fields().at(0);
  const GlobalField values = eddy::testing::gather(dye.field, sim.decomposition(), sim.state().shape.ghost);
  const double h = 2 * M_PI / n;
  double error = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      error = std::max(error, std::abs(values(i, j, 0) - (0.25 + std::sin((i + 0.5) * h) * (j + 0.5) * h)));
    }
  }
  EXPECT_LE(error, eddy::testing::round_off(1e-15, 1e-5));
}
