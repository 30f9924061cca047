// to_yaml prints every key with its resolved value, and the text loads back to the same deck.
#include "config/load.hpp"
#include "config/print.hpp"
#include "config_test_helpers.hpp"

#include <cstdlib>

namespace eddy::config {
namespace {

TEST(ConfigPrint, NonDefaultDeckRoundTrips) {
  const char* yaml =
      "name: odd.case-1\n"
      "domain: {dimensions: 3, cells: [12, 10, 6], length: [0.1, 0.30000000000000004, 3], origin: [-1e-300, 2, 7]}\n"
      "physics: {viscosity: 0.0123456789012345678, density: 998.2}\n"
      "boundary:\n"
      "  x_low: {type: inflow, velocity: [0.7, 0.1, 0], profile: parabolic}\n"
      "  x_high: {type: outflow, kind: convective}\n"
      "  y_low: {type: free_slip}\n"
      "  y_high: {type: moving_wall, velocity: [1, 0, -0.25]}\n"
      "  default: {type: periodic}\n"
      "initial: {type: random, velocity: [0.5, 0, 0], amplitude: 0.01, seed: 987654321987}\n"
      "time: {scheme: euler, dt: 0.000123, cfl: 0.9, viscous_safety: 0.25, end_time: 3.5, max_steps: 77,"
      " wall_time_limit: 3600}\n"
      "numerics: {advection: upwind}\n"
      "pressure: {solver: mg_cg, rtol: 0, intermediate_rtol: 0.003, atol: 1e-9, max_iterations: 7,"
      " smoother: chebyshev, cycle: w, pre_smooth: 0, post_smooth: 3, check_every: 2, gather_coarse_levels: false}\n"
      "output: {directory: 'runs/with space/\"quoted\" \\\\ dir', overwrite: true, interval_steps: 5,"
      " interval_time: 0, fields: [q_criterion, velocity], checkpoint_interval_steps: 100, keep_checkpoints: 1,"
      " log_interval: 1, exact_phase_times: false}\n"
      "parallel: {process_grid: [2, 0, 1], halo_backend: nccl, reduction_backend: mpi, overlap: false}\n"
      "tuning: {pair_planes: 4, hdf5_writes: token_passing}\n";
  const Deck deck = load_text(yaml, "t");
  EXPECT_EQ(deck.output.directory, "runs/with space/\"quoted\" \\\\ dir");
  EXPECT_EQ(deck.boundary.faces[4].type, BoundaryType::periodic);
  const std::string printed = to_yaml(deck);
  EXPECT_EQ(load_text(printed, "t"), deck) << printed;
  EXPECT_CONTAINS(printed, "dt: 0.000123");
  EXPECT_FALSE(deck.output.exact_phase_times);
  EXPECT_FALSE(deck.pressure.gather_coarse_levels);
  EXPECT_EQ(deck.tuning.pair_planes, 4);
  EXPECT_EQ(deck.tuning.hdf5_writes, Hdf5Writes::token_passing);
  EXPECT_CONTAINS(printed, "x_low: {type: inflow, velocity: [0.7, 0.1, 0], profile: parabolic}");
}

// A deck given in Rayleigh and Prandtl numbers prints them, not the viscosity and diffusivity they set.
TEST(ConfigPrint, RayleighAndPrandtlAreKeptAsGiven) {
  const std::string yaml =
      "domain: {cells: [16, 8], length: [2, 1]}\n"
      "physics: {rayleigh: 1.0e4, prandtl: 0.71, reference_temperature: 0.5}\n"
      "scalars:\n  - name: temperature\n    initial: {type: linear, axis: y, low: 1, high: 0}\n";
  const Deck deck = load_text(yaml, "t");
  const std::string printed = to_yaml(deck);
  EXPECT_EQ(load_text(printed, "t"), deck) << printed;
  EXPECT_CONTAINS(printed, "rayleigh: 10000");
  EXPECT_CONTAINS(printed, "prandtl: 0.71");
  EXPECT_EQ(printed.find("viscosity:"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("diffusivity:"), std::string::npos) << printed;
}

TEST(ConfigPrint, TwoDimensionalDecksPrintTwoComponentsAndNoZFaces) {
  const std::string printed = to_yaml(load_text("name: c\n", "t"));
  EXPECT_CONTAINS(printed, "cells: [64, 64]\n");
  EXPECT_LACKS(printed, "z_low");
  EXPECT_CONTAINS(printed, "dt: {adaptive: true, initial: 0.001}");
}

TEST(ConfigPrint, RealsReadBackExactly) {
  for (double value : {0.1 + 0.2, 1e-300, 6.283185307179586, 1.0 / 3.0, 123456789.0, -0.0}) {
    const std::string text = format_real(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
  }
  EXPECT_EQ(format_real(0.01), "0.01");
}

}  // namespace
}  // namespace eddy::config
