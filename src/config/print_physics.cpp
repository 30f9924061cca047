#include "config/print_physics.hpp"

#include "config/names_physics.hpp"
#include "config/print.hpp"

#include <sstream>

namespace eddy::config {
namespace {

std::string text_value(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string numbers(const std::array<double, 3>& values, int count) {
  std::string text = "[";
  for (int a = 0; a < count; ++a) text += (a ? ", " : "") + format_real(values[a]);
  return text + "]";
}

std::string scalar_face_yaml(const ScalarFace& face) {
  std::string text = "{type: " + to_string(face.type);
  if (face.type == ScalarBoundaryType::value || face.type == ScalarBoundaryType::flux ||
      face.type == ScalarBoundaryType::inflow) {
    text += ", value: " + (face.expression.empty() ? format_real(face.value) : yaml_string(face.expression));
  }
  return text + "}";
}

std::string scalar_initial_yaml(const ScalarInitial& initial) {
  std::string text = "{type: " + to_string(initial.type);
  if (initial.type == ScalarInitialType::linear) {
    text += ", axis: " + axis_letter(initial.axis) + ", low: " + format_real(initial.low) +
            ", high: " + format_real(initial.high);
  } else if (initial.type == ScalarInitialType::expression) {
    return text + ", value: " + yaml_string(initial.expression) + ", seed: " + std::to_string(initial.seed) + "}";
  } else {
    text += ", value: " + format_real(initial.value);
  }
  return text + ", amplitude: " + format_real(initial.amplitude) + ", seed: " + std::to_string(initial.seed) + "}";
}

}  // namespace

std::string buoyancy_yaml(const Deck& deck) {
  const auto& physics = deck.physics;
  // Ra and Pr stand for the viscosity, beta_g and the temperature's diffusivity they set (nondimensional in the
  // free-fall velocity), which are left out.
  const std::string given = physics.rayleigh > 0 ? "  rayleigh: " + format_real(physics.rayleigh) + "\n" +
                                                       "  prandtl: " + format_real(physics.prandtl) + "\n"
                                                 : "  beta_g: " + format_real(physics.beta_g) + "\n";
  return given + "  reference_temperature: " + format_real(physics.reference_temperature) + "\n" +
         "  gravity: " + numbers(physics.gravity, deck.domain.dimensions) + "\n";
}

std::string scalars_and_bodies_yaml(const Deck& deck) {
  const int dims = deck.domain.dimensions;
  std::ostringstream out;
  if (!deck.scalars.empty()) out << "scalars:\n";
  for (const auto& scalar : deck.scalars) {
    out << "  - name: " << text_value(scalar.name) << "\n";
    if (deck.physics.rayleigh <= 0 || scalar.name != "temperature") {
      out << "    diffusivity: " << format_real(scalar.diffusivity) << "\n";
    }
    if (scalar.source != "0") out << "    source: " << yaml_string(scalar.source) << "\n";
    out << "    initial: " << scalar_initial_yaml(scalar.initial) << "\n"
        << "    boundary:\n";
    for (int f = 0; f < 2 * dims; ++f)
      out << "      " << face_names[f] << ": " << scalar_face_yaml(scalar.boundary[f]) << "\n";
  }
  if (!deck.bodies.empty()) out << "bodies:\n";
  for (const auto& body : deck.bodies) {
    out << "  - name: " << text_value(body.name) << "\n"
        << "    shape: " << to_string(body.shape) << "\n"
        << "    center: " << numbers(body.center, dims) << "\n";
    if (body.shape == BodyShape::box) {
      out << "    size: " << numbers(body.size, dims) << "\n";
    } else {
      out << "    radius: " << format_real(body.radius) << "\n";
    }
    if (body.shape == BodyShape::cylinder) out << "    axis: " << axis_letter(body.axis) << "\n";
    out << "    reference_velocity: " << format_real(body.reference_velocity) << "\n"
        << "    reference_length: " << format_real(body.reference_length) << "\n";
    if (dims == 3) out << "    reference_area: " << format_real(body.reference_area) << "\n";
  }
  if (!deck.probes.empty()) out << "probes:\n";
  for (const auto& probe : deck.probes) {
    out << "  - {name: " << text_value(probe.name) << ", at: " << numbers(probe.at, dims) << "}\n";
  }
  if (!deck.lines.empty()) out << "lines:\n";
  for (const auto& line : deck.lines) {
    out << "  - {name: " << text_value(line.name) << ", from: " << numbers(line.from, dims)
        << ", to: " << numbers(line.to, dims) << ", points: " << line.points
        << ", interval_time: " << format_real(line.interval_time) << "}\n";
  }
  if (!deck.planes.empty()) out << "planes:\n";
  for (const auto& plane : deck.planes) {
    out << "  - {name: " << text_value(plane.name) << ", axis: " << axis_letter(plane.axis)
        << ", at: " << format_real(plane.at) << ", interval_time: " << format_real(plane.interval_time) << "}\n";
  }
  if (const auto& statistics = deck.statistics; statistics.enabled) {
    std::string axes;
    for (int a = 0; a < dims; ++a) {
      if (statistics.average_over[a]) axes += (axes.empty() ? "" : ", ") + axis_letter(a);
    }
    out << "statistics:\n"
        << "  start_time: " << format_real(statistics.start_time) << "\n"
        << "  interval_steps: " << statistics.interval_steps << "\n"
        << "  average_over: [" << axes << "]\n"
        << "  interval_time: " << format_real(statistics.interval_time) << "\n";
  }
  return out.str();
}

}  // namespace eddy::config
