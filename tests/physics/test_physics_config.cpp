// The scalars, buoyancy, bodies and probes sections: decks in inputs/ load and round-trip, rayleigh/prandtl set the
// dimensionless coefficients, and mistakes fail with located messages.
#include "../config/config_test_helpers.hpp"
#include "config/print.hpp"

#include <cmath>

namespace eddy::config {
namespace {

using testing::load_error;
using testing::source_dir;

TEST(PhysicsConfig, DecksLoadAndRoundTrip) {
  for (const char* name :
       {"heated_cavity2d_ra1e4", "rayleigh_benard2d_ra1e4", "cylinder2d_re20", "cylinder2d_re100", "sphere3d_re100"}) {
    const Deck deck = load(source_dir() + "/inputs/" + name + ".yaml");
    EXPECT_EQ(load_text(to_yaml(deck), deck.source), deck) << name << "\n" << to_yaml(deck);
  }
}

TEST(PhysicsConfig, RayleighAndPrandtlSetTheDimensionlessCoefficients) {
  const Deck deck = load(source_dir() + "/inputs/heated_cavity2d_ra1e4.yaml");
  EXPECT_DOUBLE_EQ(deck.physics.viscosity, std::sqrt(0.71 / 1e4));
  EXPECT_DOUBLE_EQ(deck.scalars[0].diffusivity, 1 / std::sqrt(1e4 * 0.71));
  EXPECT_EQ(deck.physics.beta_g, 1.0);
  EXPECT_EQ(deck.scalars[0].boundary[2].type, ScalarBoundaryType::adiabatic);
  EXPECT_EQ(deck.scalars[0].boundary[4].type, ScalarBoundaryType::periodic);
}

TEST(PhysicsConfig, ScalarFacesFollowTheVelocityUnlessGiven) {
  const Deck deck = load_text(
      "boundary: {x_low: {type: inflow, velocity: [1, 0]}, x_high: outflow, y_low: periodic, y_high: periodic}\n"
      "scalars: [{name: dye, diffusivity: 0.1}]\n",
      "t");
  EXPECT_EQ(deck.scalars[0].boundary[0].type, ScalarBoundaryType::inflow);
  EXPECT_EQ(deck.scalars[0].boundary[1].type, ScalarBoundaryType::outflow);
  EXPECT_EQ(deck.scalars[0].boundary[2].type, ScalarBoundaryType::periodic);
}

TEST(PhysicsConfig, MistakesAreLocated) {
  EXPECT_CONTAINS(load_error("scalars:\n  - {name: temperature, diffusivty: 1}\n"),
                  "scalars[0].diffusivty (deck.yaml, line 2): unknown key 'diffusivty'");
  EXPECT_CONTAINS(load_error("scalars:\n  - name: t\n    diffusivity: -1\n"),
                  "scalars[0].diffusivity (deck.yaml, line 3)");
  EXPECT_CONTAINS(load_error("scalars:\n  - name: t\n    boundary: {x_low: {type: value}}\n"),
                  "scalars[0].boundary.x_low.value");
  EXPECT_CONTAINS(load_error("scalars: [{name: t, boundary: {x_low: periodic}}]\n"),
                  "a scalar face is periodic exactly where the velocity face is");
  EXPECT_CONTAINS(load_error("physics: {rayleigh: 1e4, prandtl: 0.7}\n"), "needs a scalar named temperature");
  EXPECT_CONTAINS(load_error("physics: {rayleigh: 1e4, prandtl: 0.7, viscosity: 1}\nscalars: [{name: temperature}]\n"),
                  "physics.viscosity");
  EXPECT_CONTAINS(load_error("physics: {beta_g: 1}\n"), "physics.beta_g");
  EXPECT_CONTAINS(load_error("bodies:\n  - {name: b, shape: sphere, center: [0.5, 0.5], radius: 0.1}\n"),
                  "bodies[0].shape (deck.yaml, line 2): got sphere in 2D");
  EXPECT_CONTAINS(load_error("bodies:\n  - {name: b, shape: circle, center: [1.5, 0.5], radius: 0.1}\n"),
                  "bodies[0].center[0]");
  EXPECT_CONTAINS(load_error("bodies:\n  - {name: b, shape: box, center: [0.5, 0.5], radius: 0.1}\n"),
                  "bodies[0].radius");
  EXPECT_CONTAINS(load_error("probes:\n  - {name: a, at: [0.5, 1.5]}\n"),
                  "probes[0].at[1] (deck.yaml, line 2): got 1.5; allowed: inside the domain [0, 1]");
  EXPECT_CONTAINS(load_error("probes:\n  - {name: a, at: [0.5, 0.5]}\n  - {name: a, at: [0.1, 0.1]}\n"),
                  "probes[1].name (deck.yaml, line 3): 'a' is listed twice");
  EXPECT_CONTAINS(load_error("probes:\n  - {name: a}\n"), "probes[0].at (deck.yaml, line 2): missing");
  EXPECT_CONTAINS(load_error("probes:\n  - {name: a, at: [0.5, 0.5], field: p}\n"), "unknown key 'field'");
  EXPECT_CONTAINS(load_error("probes:\n  - {name: front face, at: [0.5, 0.5]}\n"), "probes[0].name");
  const std::string fields = "output: {interval_time: 1}\n";
  EXPECT_CONTAINS(load_error(fields + "lines:\n  - {name: l, from: [0, 0.5], to: [2, 0.5]}\n"),
                  "lines[0].to[0] (deck.yaml, line 3): got 2; allowed: inside the domain [0, 1]");
  EXPECT_CONTAINS(load_error(fields + "lines:\n  - {name: l, from: [0, 0.5], to: [1, 0.5], points: 1}\n"),
                  "lines[0].points (deck.yaml, line 3): got 1; allowed: an integer from 2 to 100000");
  EXPECT_CONTAINS(load_error(fields + "lines:\n  - {name: l, to: [1, 0.5]}\n"),
                  "lines[0].from (deck.yaml, line 3): missing");
  EXPECT_CONTAINS(load_error("output: {interval_time: 0, interval_steps: 0}\n"
                             "lines:\n  - {name: l, from: [0, 0.5], to: [1, 0.5]}\n"),
                  "lines[0].interval_time (deck.yaml, line 3): got 0; allowed: > 0 (0 follows the field output");
  const Deck deck =
      load_text(fields + "lines:\n  - {name: l, from: [0, 0.5], to: [1, 0.5], points: 7, interval_time: 0.5}\n", "t");
  EXPECT_EQ(load_text(to_yaml(deck), "t"), deck) << to_yaml(deck);
  EXPECT_EQ(deck.lines.at(0).points, 7);
}

}  // namespace
}  // namespace eddy::config
