// A periodic channel driven by physics.drive, and the running averages of `statistics`, against exact answers:
// - constant flow rate: the bulk velocity holds to round-off, the laminar steady state needs the pressure gradient
//   3 nu U_b / h^2 up to the grid's second-order error, and the wall shear of the statistics balances it exactly;
// - constant pressure gradient: the same steady state reached from the other side (its bulk velocity);
// - the decaying 2D Taylor-Green vortex, an exact mode of the discrete equations at small amplitude, whose time
//   averages and covariances follow in closed form from the discrete decay rate and the sample weights (to round-off):
//   profiles averaged over x, and per cell;
// - a conducting layer, whose mean temperature is linear and whose wall Nusselt numbers are 1.
// Every case runs on 1, 2 and 4 ranks against the same answers.
#include "../flow/flow_test_support.hpp"
#include "physics/flow_statistics.hpp"
#include "physics/wall_units.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace eddy;

// Laminar channel of half height 1 across y, periodic in x, from a noisy plug flow.
config::Deck channel(int ny, config::DriveType drive, double value, double end_time) {
  config::Deck deck;
  deck.domain.cells = {8, ny, 1};
  deck.domain.length = {1, 2, 1.0 / 8};
  deck.domain.origin = {0, -1, 0};
  deck.physics.viscosity = 0.1;
  deck.physics.drive = {drive, 0, value};
  for (int side = 0; side < 2; ++side) deck.boundary.faces[side].type = config::BoundaryType::periodic;
  deck.initial.type = config::InitialType::uniform;
  deck.initial.velocity = {1, 0, 0};
  deck.initial.noise = 0.05;
  deck.time.end_time = end_time;
  deck.statistics.enabled = true;
  deck.statistics.start_time = end_time - 1;
  deck.statistics.average_over = {true, false, false};
  return deck;
}

// The last value named `name` among a step's physics diagnostics.
double last_extra(const time::Simulation& sim, const std::string& name) {
  for (const auto& value : sim.history().back().extra) {
    if (value.name == name) return value.value;
  }
  ADD_FAILURE() << "no diagnostic " << name;
  return 0;
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

struct FlowRateResult {
  double gradient = 0, bulk = 0, wall_shear = 0;
};

FlowRateResult run_flow_rate(int ny) {
  const auto deck = channel(ny, config::DriveType::flow_rate, 1.0, 12);
  return eddy::testing::run_to_end(deck, [&](const time::Simulation& sim) {
    FlowRateResult r;
    r.gradient = last_extra(sim, "drive_pressure_gradient");
    r.bulk = mean(eddy::testing::gather(sim, 0).values);
    const auto units = physics::wall_units(sim.statistics().profiles(sim.decomposition().comm), sim.deck());
    EXPECT_TRUE(units.has_value());
    if (units) r.wall_shear = units->wall_shear;
    return r;
  });
}

TEST(ChannelDrive, FlowRateHoldsTheBulkVelocityAndConvergesToPoiseuille) {
  const double exact = 3 * 0.1 * 1.0;  // -dp/dx = 3 nu U_b / h^2
  const FlowRateResult coarse = run_flow_rate(16), fine = run_flow_rate(32);
  for (const auto& r : {coarse, fine}) {
    EXPECT_NEAR(r.bulk, 1.0, 1e-13);
    EXPECT_NEAR(r.wall_shear, r.gradient, 1e-9 * exact);  // the wall shear balances the drive (h = 1)
  }
  const double order = std::log2(std::abs(coarse.gradient - exact) / std::abs(fine.gradient - exact));
  EXPECT_GT(order, 1.9) << coarse.gradient << " " << fine.gradient;
  EXPECT_LT(std::abs(fine.gradient - exact), 2e-3 * exact);
}

TEST(ChannelDrive, PressureGradientReachesTheSameSteadyState) {
  // The flow-rate drive's steady gradient on 32 cells, applied as a constant gradient, must give U_b = 1 back.
  const double gradient = run_flow_rate(32).gradient;
  const auto deck = channel(32, config::DriveType::pressure_gradient, gradient, 70);
  const double bulk =
      eddy::testing::run_to_end(deck, [](const time::Simulation& sim) { return last_extra(sim, "bulk_velocity"); });
  EXPECT_NEAR(bulk, 1.0, 2e-6) << bulk;  // the slowest mode has decayed by exp(-nu pi^2 t / 4)
}

// The 2D Taylor-Green vortex u = A sin x cos y e^{-a t}, v = -A cos x sin y e^{-a t} on [0, 2 pi]^2.
config::Deck taylor_green(int n, double dt, long long steps) {
  config::Deck deck;
  deck.domain.cells = {n, n, 1};
  const double length = 2 * M_PI;
  deck.domain.length = {length, length, length / n};
  deck.physics.viscosity = 0.05;
  for (auto& face : deck.boundary.faces) face.type = config::BoundaryType::periodic;
  deck.initial.type = config::InitialType::taylor_green;
  deck.initial.amplitude = 0.1;
  deck.time.adaptive = false;
  deck.time.dt = dt;
  deck.time.max_steps = steps;
  deck.time.end_time = 1e9;
  deck.pressure.rtol = 1e-12;
  deck.statistics.enabled = true;
  deck.statistics.average_over = {true, false, false};
  return deck;
}

TEST(FlowStatistics, TaylorGreenAveragesMatchTheirClosedForm) {
  const int n = 32;
  const double dt = 0.01, amplitude = 0.1;
  const long long steps = 200;
  const double h = 2 * M_PI / n;
  // The discrete Laplacian's decay rate of the mode, and the sample sums sum_s dt e^{-b s dt} over the steps.
  const double a = 2 * 0.05 * std::pow(std::sin(h / 2) / (h / 2), 2);
  const auto samples = [&](double b) {
    double sum = 0;
    for (long long s = 1; s <= steps; ++s) sum += dt * std::exp(-b * s * dt);
    return sum / (steps * dt);
  };
  const double centre = std::cos(h / 2);  // a face mode averaged to the cell centre
  const auto deck = taylor_green(n, dt, steps);
  eddy::testing::run_to_end(deck, [&](const time::Simulation& sim) {
    const auto& stats = sim.statistics();
    EXPECT_EQ(stats.window().samples, steps);
    EXPECT_NEAR(stats.window().weight, steps * dt, 1e-12);
    const auto profiles = stats.profiles(sim.decomposition().comm);
    EXPECT_EQ(profiles.coordinate.size(), static_cast<std::size_t>(n));
    if (profiles.coordinate.size() != static_cast<std::size_t>(n)) return 0;
    const auto column = [&](const std::string& name) {
      for (std::size_t c = 0; c < profiles.columns.size(); ++c) {
        if (profiles.columns[c] == name) return profiles.values[c];
      }
      ADD_FAILURE() << "no column " << name;
      return std::vector<double>(n, 0.0);
    };
    const double scale = amplitude * amplitude * centre * centre * samples(2 * a);
    double worst = 0;
    for (int j = 0; j < n; ++j) {
      const double y = profiles.coordinate[j];
      const double expected_uu = 0.5 * std::cos(y) * std::cos(y) * scale;
      const double expected_vv = 0.5 * std::sin(y) * std::sin(y) * scale;
      worst = std::max({worst, std::abs(column("uu")[j] - expected_uu), std::abs(column("vv")[j] - expected_vv)});
      EXPECT_NEAR(column("mean_u")[j], 0, 1e-15);
      EXPECT_NEAR(column("uv")[j], 0, 1e-15);
    }
    EXPECT_LT(worst, 1e-10 * scale) << "largest error of uu and vv";
    // Per cell the time mean of u is A sin x cos y times the mean decay, and its variance what is left of <uu>.
    for (const auto& [name, block] : stats.cell_means()) {
      if (name != "mean_u" && name != "uu") continue;
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block);
      const auto& decomp = sim.decomposition();
      double error = 0;
      for (int j = 0; j < decomp.local_cells[1]; ++j) {
        for (int i = 0; i < decomp.local_cells[0]; ++i) {
          const double x = (decomp.offset[0] + i + 0.5) * h, y = (decomp.offset[1] + j + 0.5) * h;
          const double mode = amplitude * centre * std::sin(x) * std::cos(y);
          const double expected =
              name == "mean_u" ? mode * samples(a) : mode * mode * (samples(2 * a) - samples(a) * samples(a));
          error = std::max(error, std::abs(host(i, j, 0) - expected));
        }
      }
      EXPECT_LT(error, 1e-10 * amplitude * (name == "uu" ? amplitude : 1)) << name;
    }
    return 0;
  });
}

// A conducting layer between walls held at 1 (y = 0) and 0 (y = 1), at rest: the mean temperature is linear, its
// wall Nusselt numbers are 1 and its fluxes with the velocity vanish.
TEST(FlowStatistics, ConductingLayerHasNusseltOne) {
  config::Deck deck;
  deck.domain.cells = {8, 16, 1};
  deck.domain.length = {1, 1, 1.0 / 8};
  for (int side = 0; side < 2; ++side) deck.boundary.faces[side].type = config::BoundaryType::periodic;
  config::ScalarConfig temperature;
  temperature.diffusivity = 0.1;
  temperature.initial.type = config::ScalarInitialType::uniform;
  temperature.initial.value = 0.5;
  for (int f : {0, 1, 4, 5}) temperature.boundary[f].type = config::ScalarBoundaryType::periodic;
  temperature.boundary[2] = {config::ScalarBoundaryType::value, 1, ""};
  temperature.boundary[3] = {config::ScalarBoundaryType::value, 0, ""};
  deck.scalars.push_back(temperature);
  deck.time.end_time = 20;
  deck.statistics.enabled = true;
  deck.statistics.start_time = 19;
  deck.statistics.average_over = {true, false, false};
  eddy::testing::run_to_end(deck, [&](const time::Simulation& sim) {
    const auto profiles = sim.statistics().profiles(sim.decomposition().comm);
    const auto nusselt = physics::wall_nusselt(profiles, sim.deck());
    EXPECT_EQ(nusselt.size(), 2u);
    for (const auto& wall : nusselt) EXPECT_NEAR(wall.value, 1.0, 1e-8) << wall.face;
    for (std::size_t c = 0; c < profiles.columns.size(); ++c) {
      const auto& name = profiles.columns[c];
      for (std::size_t m = 0; m < profiles.coordinate.size(); ++m) {
        if (name == "mean_temperature") {
          EXPECT_NEAR(profiles.values[c][m], 1 - profiles.coordinate[m], 1e-8);
        }
        if (name == "v_temperature") {
          EXPECT_NEAR(profiles.values[c][m], 0, 1e-14);
        }
      }
    }
    return 0;
  });
}

}  // namespace
