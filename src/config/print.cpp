#include "config/print.hpp"

#include "config/names.hpp"
#include "config/print_physics.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace eddy::config {
namespace {

// Words YAML would read as something other than text.
bool is_yaml_keyword(std::string lower) {
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}) {
    if (lower == word) return true;
  }
  return false;
}

// The text as a YAML string that reads back unchanged: plain when it is a simple word or path, else double-quoted.
std::string quoted(const std::string& text) {
  const bool plain =
      !text.empty() && std::isalpha(static_cast<unsigned char>(text[0])) && !is_yaml_keyword(text) &&
      std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
      });
  if (plain) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[(c >> 4) & 0xf];
      out += hex[c & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

template <class T>
std::string list(const std::array<T, 3>& values, int count) {
  std::string text = "[";
  for (int a = 0; a < count; ++a) {
    if constexpr (std::is_same_v<T, double>) {
      text += (a ? ", " : "") + format_real(values[a]);
    } else {
      text += (a ? ", " : "") + std::to_string(values[a]);
    }
  }
  return text + "]";
}

std::string boolean(bool value) { return value ? "true" : "false"; }

std::string face_yaml(const FaceBoundary& face, int dims) {
  std::string text = "{type: " + to_string(face.type);
  if (!face.velocity_expressions.empty()) {
    text += ", velocity: [";
    for (int a = 0; a < dims; ++a) text += (a ? ", " : "") + quoted(face.velocity_expressions[a]);
    return text + "]}";
  }
  if (face.type == BoundaryType::moving_wall || face.type == BoundaryType::inflow) {
    text += ", velocity: " + list(face.velocity, dims);
  }
  if (face.type == BoundaryType::inflow) text += ", profile: " + to_string(face.profile);
  if (face.type == BoundaryType::outflow) text += ", kind: " + to_string(face.outflow);
  return text + "}";
}

}  // namespace

std::string yaml_string(const std::string& text) { return quoted(text); }

std::string format_real(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string to_yaml(const Deck& deck) {
  const int n = deck.domain.dimensions;
  std::ostringstream out;
  out << "name: " << quoted(deck.name) << "\n";
  if (!deck.constants.empty()) {
    out << "constants:\n";
    for (const auto& [name, value] : deck.constants) out << "  " << name << ": " << format_real(value) << "\n";
  }
  out << "domain:\n"
      << "  dimensions: " << n << "\n"
      << "  cells: " << list(deck.domain.cells, n) << "\n"
      << "  length: " << list(deck.domain.length, n) << "\n"
      << "  origin: " << list(deck.domain.origin, n) << "\n";
  if (deck.domain.stretched()) {
    out << "  stretching:\n";
    for (int a = 0; a < n; ++a) {
      const auto& s = deck.domain.stretching[a];
      if (!s.stretched()) continue;
      out << "    " << axis_letter(a) << ": {";
      if (s.cluster != Clustering::none) {
        out << "cluster: " << to_string(s.cluster) << ", "
            << (s.factor > 0 ? "factor: " + format_real(s.factor) : "first_cell: " + format_real(s.first_cell));
      } else {
        // A file's coordinates are written out, so that the printed deck stands on its own.
        out << "faces: [";
        for (std::size_t m = 0; m < s.faces.size(); ++m) out << (m ? ", " : "") << format_real(s.faces[m]);
        out << "]";
      }
      out << "}\n";
    }
  }
  out << "physics:\n";
  if (deck.physics.rayleigh <= 0) out << "  viscosity: " << format_real(deck.physics.viscosity) << "\n";
  out << "  density: " << format_real(deck.physics.density) << "\n" << buoyancy_yaml(deck);
  if (deck.physics.has_body_force()) {
    out << "  body_force: [";
    for (int a = 0; a < n; ++a) out << (a ? ", " : "") << quoted(deck.physics.body_force[a]);
    out << "]\n";
  }
  if (const auto& drive = deck.physics.drive; drive.type != DriveType::none) {
    out << "  drive: {axis: " << axis_letter(drive.axis) << ", "
        << (drive.type == DriveType::flow_rate ? "bulk_velocity: " : "pressure_gradient: ") << format_real(drive.value)
        << "}\n";
  }
  out << "boundary:\n";
  for (int f = 0; f < 2 * n; ++f) out << "  " << face_names[f] << ": " << face_yaml(deck.boundary.faces[f], n) << "\n";
  const auto& initial = deck.initial;
  out << "initial:\n"
      << "  type: " << to_string(initial.type) << "\n";
  if (initial.type == InitialType::expression) {
    out << "  velocity: [";
    for (int a = 0; a < n; ++a) out << (a ? ", " : "") << quoted(initial.velocity_expressions[a]);
    out << "]\n"
        << "  pressure: " << quoted(initial.pressure_expression) << "\n";
  } else {
    out << "  velocity: " << list(initial.velocity, n) << "\n";
  }
  out << "  amplitude: " << format_real(initial.amplitude) << "\n"
      << "  noise: " << format_real(initial.noise) << "\n"
      << "  seed: " << initial.seed << "\n";
  const auto& time = deck.time;
  out << "time:\n"
      << "  scheme: " << to_string(time.scheme) << "\n"
      << "  dt: " << (time.adaptive ? "{adaptive: true, initial: " + format_real(time.dt) + "}" : format_real(time.dt))
      << "\n"
      << "  cfl: " << format_real(time.cfl) << "\n"
      << "  viscous_safety: " << format_real(time.viscous_safety) << "\n"
      << "  end_time: " << format_real(time.end_time) << "\n"
      << "  max_steps: " << time.max_steps << "\n"
      << "  wall_time_limit: " << format_real(time.wall_time_limit) << "\n";
  out << "numerics:\n"
      << "  advection: " << to_string(deck.numerics.advection) << "\n";
  const auto& pressure = deck.pressure;
  out << "pressure:\n"
      << "  solver: " << to_string(pressure.solver) << "\n"
      << "  rtol: " << format_real(pressure.rtol) << "\n"
      << "  intermediate_rtol: " << format_real(pressure.intermediate_rtol) << "\n"
      << "  atol: " << format_real(pressure.atol) << "\n"
      << "  max_iterations: " << pressure.max_iterations << "\n"
      << "  smoother: " << to_string(pressure.smoother) << "\n"
      << "  cycle: " << to_string(pressure.cycle) << "\n"
      << "  pre_smooth: " << pressure.pre_smooth << "\n"
      << "  post_smooth: " << pressure.post_smooth << "\n"
      << "  relaxation: " << format_real(pressure.relaxation) << "\n"
      << "  check_every: " << pressure.check_every << "\n"
      << "  gather_coarse_levels: " << boolean(pressure.gather_coarse_levels) << "\n";
  const auto& output = deck.output;
  out << "output:\n"
      << "  directory: " << quoted(output.directory) << "\n"
      << "  overwrite: " << boolean(output.overwrite) << "\n"
      << "  interval_steps: " << output.interval_steps << "\n"
      << "  interval_time: " << format_real(output.interval_time) << "\n"
      << "  fields: [";
  for (std::size_t i = 0; i < output.fields.size(); ++i) out << (i ? ", " : "") << quoted(output.fields[i]);
  out << "]\n"
      << "  checkpoint_interval_steps: " << output.checkpoint_interval_steps << "\n"
      << "  keep_checkpoints: " << output.keep_checkpoints << "\n"
      << "  log_interval: " << output.log_interval << "\n"
      << "  exact_phase_times: " << boolean(output.exact_phase_times) << "\n";
  const auto& parallel = deck.parallel;
  out << "parallel:\n"
      << "  process_grid: " << list(parallel.process_grid, n) << "\n"
      << "  halo_backend: " << to_string(parallel.halo_backend) << "\n"
      << "  reduction_backend: " << to_string(parallel.reduction_backend) << "\n"
      << "  overlap: " << boolean(parallel.overlap) << "\n";
  out << "tuning:\n"
      << "  pair_planes: " << deck.tuning.pair_planes << "\n"
      << "  hdf5_writes: " << to_string(deck.tuning.hdf5_writes) << "\n";
  out << scalars_and_bodies_yaml(deck);
  return out.str();
}

}  // namespace eddy::config
