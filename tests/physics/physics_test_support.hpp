#pragma once
// Helpers shared by the physics tests: decks for heated boxes and channels, and extra diagnostics by name.
#include "config/deck.hpp"
#include "core/error.hpp"
#include "core/step_record.hpp"

#include <cmath>
#include <string>

namespace eddy::testing {

/// The value called `name` among a step's extra diagnostics (throws when absent).
inline double extra_value(const StepRecord& record, const std::string& name) {
  for (const auto& value : record.extra) {
    if (value.name == name) return value.value;
  }
  throw Error("no diagnostic called " + name);
}

/// A 2D box heated from one wall and cooled at the opposite one (`axis` 0: side walls, 1: floor and lid), no-slip
/// walls, the other axis periodic when `periodic_sides`; dimensionless buoyancy at Rayleigh `ra`, Prandtl `pr`.
inline config::Deck heated_box_deck(int nx, int ny, double length_x, int axis, bool periodic_sides, double ra,
                                    double pr) {
  config::Deck deck;
  deck.name = "heated";
  deck.domain.dimensions = 2;
  deck.domain.cells = {nx, ny, 1};
  deck.domain.length = {length_x, 1.0, length_x / nx};
  for (auto& face : deck.boundary.faces) face.type = config::BoundaryType::no_slip;
  deck.boundary.faces[4].type = deck.boundary.faces[5].type = config::BoundaryType::periodic;
  const int side = 1 - axis;
  if (periodic_sides)
    deck.boundary.faces[2 * side].type = deck.boundary.faces[2 * side + 1].type = config::BoundaryType::periodic;
  config::ScalarConfig temperature;
  temperature.name = "temperature";
  for (int f = 0; f < 6; ++f) {
    temperature.boundary[f].type = deck.boundary.faces[f].type == config::BoundaryType::periodic
                                       ? config::ScalarBoundaryType::periodic
                                       : config::ScalarBoundaryType::adiabatic;
  }
  temperature.boundary[2 * axis] = {config::ScalarBoundaryType::value, 1.0, ""};
  temperature.boundary[2 * axis + 1] = {config::ScalarBoundaryType::value, 0.0, ""};
  temperature.initial.type = config::ScalarInitialType::linear;
  temperature.initial.axis = axis;
  temperature.initial.low = 1;
  temperature.initial.high = 0;
  // Dimensionless scaling of config/parse_physics.hpp with height 1 and unit temperature difference.
  temperature.diffusivity = 1 / std::sqrt(ra * pr);
  deck.physics.viscosity = std::sqrt(pr / ra);
  deck.physics.beta_g = 1;
  deck.physics.reference_temperature = 0.5;
  deck.physics.gravity = {0, -1, 0};
  deck.scalars.push_back(temperature);
  deck.pressure.solver = config::PoissonSolverType::multigrid;
  deck.pressure.rtol = 1e-10;
  deck.time.dt = 1.0;
  deck.output.log_interval = 0;
  return deck;
}

}  // namespace eddy::testing

namespace eddy::testing {

/// The channel of Schafer and Turek (1996), benchmark 2D-1: height 0.41, cylinder of diameter 0.1 centred at
/// (0.2, 0.2), parabolic inflow of mean 0.2 (peak 0.3), nu = 1e-3 (Re = 20 on the mean velocity and the diameter),
/// on nx x ny square cells; the length is nx cells (2.19 instead of 2.2 for 256 x 48, so multigrid coarsens well).
inline config::Deck cylinder_channel_deck(int nx, int ny) {
  config::Deck deck;
  deck.name = "cylinder";
  deck.domain.dimensions = 2;
  const double h = 0.41 / ny;
  deck.domain.cells = {nx, ny, 1};
  deck.domain.length = {nx * h, 0.41, h};
  using config::BoundaryType;
  deck.boundary.faces[0].type = BoundaryType::inflow;
  deck.boundary.faces[0].velocity = {0.2, 0, 0};
  deck.boundary.faces[0].profile = config::InflowProfile::parabolic;
  deck.boundary.faces[1].type = BoundaryType::outflow;
  deck.boundary.faces[2].type = deck.boundary.faces[3].type = BoundaryType::no_slip;
  deck.boundary.faces[4].type = deck.boundary.faces[5].type = BoundaryType::periodic;
  deck.physics.viscosity = 1e-3;
  config::BodyConfig cylinder;
  cylinder.name = "cylinder";
  cylinder.shape = config::BodyShape::circle;
  cylinder.center = {0.2, 0.2, 0};
  cylinder.radius = 0.05;
  cylinder.reference_velocity = 0.2;
  deck.bodies.push_back(cylinder);
  deck.pressure.solver = config::PoissonSolverType::multigrid;
  deck.pressure.rtol = 1e-9;
  deck.time.dt = 1.0;
  deck.output.log_interval = 0;
  return deck;
}

}  // namespace eddy::testing
