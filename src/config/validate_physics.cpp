#include "config/validate_physics.hpp"

#include "config/names_physics.hpp"
#include "config/output_fields.hpp"
#include "config/print.hpp"
#include "config/suggest.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace eddy::config {
namespace {

class PhysicsChecker {
 public:
  PhysicsChecker(const Deck& deck, const SourceMap& where) : deck_(deck), where_(where) {}

  void check_all() {
    for (std::size_t n = 0; n < deck_.scalars.size(); ++n) check_scalar(n);
    check_buoyancy();
    for (std::size_t n = 0; n < deck_.bodies.size(); ++n) check_body(n);
    for (std::size_t n = 0; n < deck_.probes.size(); ++n) check_probe(n);
    for (std::size_t n = 0; n < deck_.lines.size(); ++n) check_line(n);
    for (std::size_t n = 0; n < deck_.planes.size(); ++n) check_plane(n);
    check_drive();
    check_statistics();
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw Error(where_.message(path, problem));
  }
  void require_real(bool ok, const std::string& path, double value, const std::string& allowed) const {
    if (!ok) fail(path, "got " + format_real(value) + "; allowed: " + allowed);
  }
  void require_name(const std::string& name, const std::string& path) const {
    const bool safe = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!safe) fail(path, "got '" + name + "'; allowed: letters, digits and '_' (it names telemetry columns)");
  }

  void check_scalar(std::size_t n) {
    const auto& scalar = deck_.scalars[n];
    const std::string path = "scalars[" + std::to_string(n) + "]";
    require_name(scalar.name, path + ".name");
    const auto& flow = flow_output_fields();
    if (scalar.name == all_scalars_entry || std::find(flow.begin(), flow.end(), scalar.name) != flow.end()) {
      fail(path + ".name", "got '" + scalar.name + "'; allowed: any name but " + join_words(flow) + " and " +
                               all_scalars_entry + " (field files name their datasets after the scalars)");
    }
    for (std::size_t m = 0; m < n; ++m) {
      if (deck_.scalars[m].name == scalar.name) fail(path + ".name", "'" + scalar.name + "' is listed twice");
    }
    require_real(scalar.diffusivity >= 0, path + ".diffusivity", scalar.diffusivity, ">= 0 (0 = pure advection)");
    require_real(scalar.initial.amplitude >= 0, path + ".initial.amplitude", scalar.initial.amplitude, ">= 0");
    for (int axis = 0; axis < deck_.domain.dimensions; ++axis) {
      for (int side = 0; side < 2; ++side) {
        const int f = 2 * axis + side;
        const auto type = scalar.boundary[f].type;
        const auto velocity = deck_.boundary.faces[f].type;
        const std::string face_path = path + ".boundary." + std::string(face_names[f]) + ".type";
        if ((type == ScalarBoundaryType::periodic) != (velocity == BoundaryType::periodic)) {
          fail(face_path, "got " + to_string(type) + " where the velocity is " + to_string(velocity) +
                              "; a scalar face is periodic exactly where the velocity face is");
        }
        if (type == ScalarBoundaryType::inflow && velocity != BoundaryType::inflow) {
          fail(face_path, "inflow needs an inflow velocity face, but boundary." + std::string(face_names[f]) + " is " +
                              to_string(velocity) + " (use value for a wall of fixed value)");
        }
      }
    }
  }

  void check_buoyancy() {
    const auto& physics = deck_.physics;
    if (physics.beta_g == 0) return;
    const bool has_temperature = std::any_of(deck_.scalars.begin(), deck_.scalars.end(),
                                             [](const ScalarConfig& s) { return s.name == "temperature"; });
    if (!has_temperature) {
      fail("physics.beta_g", "buoyancy acts through a scalar named temperature; add one to the scalars section");
    }
    double norm = 0;
    for (double g : physics.gravity) norm += g * g;
    require_real(norm > 0, "physics.gravity", std::sqrt(norm), "a non-zero direction");
  }

  void check_body(std::size_t n) {
    const auto& body = deck_.bodies[n];
    const int dims = deck_.domain.dimensions;
    const std::string path = "bodies[" + std::to_string(n) + "]";
    require_name(body.name, path + ".name");
    for (std::size_t m = 0; m < n; ++m) {
      if (deck_.bodies[m].name == body.name) fail(path + ".name", "'" + body.name + "' is listed twice");
    }
    const bool fits = (body.shape == BodyShape::circle && dims == 2) ||
                      (body.shape == BodyShape::sphere && dims == 3) ||
                      (body.shape == BodyShape::cylinder && dims == 3) || body.shape == BodyShape::box;
    if (!fits) {
      fail(path + ".shape", "got " + to_string(body.shape) + " in " + std::to_string(dims) +
                                "D; allowed: circle and box in 2D, sphere, cylinder and box in 3D");
    }
    if (body.shape != BodyShape::box) require_real(body.radius > 0, path + ".radius", body.radius, "> 0");
    for (int a = 0; a < dims; ++a) {
      const std::string index = "[" + std::to_string(a) + "]";
      if (body.shape == BodyShape::box) require_real(body.size[a] > 0, path + ".size" + index, body.size[a], "> 0");
      const double low = deck_.domain.origin[a], high = low + deck_.domain.length[a];
      require_real(body.center[a] > low && body.center[a] < high, path + ".center" + index, body.center[a],
                   "inside the domain (" + format_real(low) + ", " + format_real(high) + ")");
    }
    require_real(body.reference_velocity > 0, path + ".reference_velocity", body.reference_velocity, "> 0");
    require_real(body.reference_length >= 0, path + ".reference_length", body.reference_length,
                 ">= 0 (0 = the diameter)");
    require_real(body.reference_area >= 0, path + ".reference_area", body.reference_area,
                 ">= 0 (0 = the frontal area)");
  }

  // Fails unless every coordinate of `point` lies in the domain (its faces included).
  void require_in_domain(const std::array<double, 3>& point, const std::string& path) const {
    for (int a = 0; a < deck_.domain.dimensions; ++a) {
      const double low = deck_.domain.origin[a], high = low + deck_.domain.length[a];
      require_real(point[a] >= low && point[a] <= high, path + "[" + std::to_string(a) + "]", point[a],
                   "inside the domain [" + format_real(low) + ", " + format_real(high) + "]");
    }
  }

  // Fails unless entry n of `list` has a safe name that no earlier entry has.
  template <class Entry>
  void require_new_name(const std::vector<Entry>& list, std::size_t n, const std::string& path) const {
    require_name(list[n].name, path + ".name");
    for (std::size_t m = 0; m < n; ++m) {
      if (list[m].name == list[n].name) fail(path + ".name", "'" + list[n].name + "' is listed twice");
    }
  }

  void check_probe(std::size_t n) {
    const std::string path = "probes[" + std::to_string(n) + "]";
    require_new_name(deck_.probes, n, path);
    require_in_domain(deck_.probes[n].at, path + ".at");
  }

  void check_line(std::size_t n) {
    const auto& line = deck_.lines[n];
    const std::string path = "lines[" + std::to_string(n) + "]";
    require_new_name(deck_.lines, n, path);
    require_in_domain(line.from, path + ".from");
    require_in_domain(line.to, path + ".to");
    if (line.points < 2 || line.points > 100000) {
      fail(path + ".points", "got " + std::to_string(line.points) + "; allowed: an integer from 2 to 100000");
    }
    require_interval(line.interval_time, path + ".interval_time");
  }

  void check_plane(std::size_t n) {
    const auto& plane = deck_.planes[n];
    const std::string path = "planes[" + std::to_string(n) + "]";
    require_new_name(deck_.planes, n, path);
    const auto& domain = deck_.domain;
    const double low = domain.origin[plane.axis], high = low + domain.length[plane.axis];
    require_real(plane.at >= low && plane.at <= high, path + ".at", plane.at,
                 "a coordinate from " + format_real(low) + " to " + format_real(high) + " (the domain along " +
                     axis_letter(plane.axis) + ")");
    require_interval(plane.interval_time, path + ".interval_time");
  }

  // An output interval of simulated time: > 0, or 0 to follow the field output where that is on.
  void require_interval(double interval_time, const std::string& path) const {
    require_real(interval_time >= 0, path, interval_time, ">= 0 (0: with the field output)");
    const bool fields_written = deck_.output.interval_steps > 0 || deck_.output.interval_time > 0;
    require_real(interval_time > 0 || fields_written, path, interval_time,
                 "> 0 (0 follows the field output, which output.interval_steps and output.interval_time turn off)");
  }

  void check_drive() {
    const auto& drive = deck_.physics.drive;
    if (drive.type == DriveType::none) return;
    if (deck_.boundary.face(drive.axis, 0).type != BoundaryType::periodic) {
      std::string periodic;
      for (int a = 0; a < deck_.domain.dimensions; ++a) {
        if (deck_.boundary.face(a, 0).type == BoundaryType::periodic)
          periodic += (periodic.empty() ? "" : ", ") + axis_letter(a);
      }
      fail("physics.drive.axis", "got '" + axis_letter(drive.axis) + "', whose faces are " +
                                     to_string(deck_.boundary.face(drive.axis, 0).type) +
                                     "; allowed: a periodic axis (" +
                                     (periodic.empty() ? "the deck has none" : periodic) + ")");
    }
  }

  void check_statistics() {
    const auto& statistics = deck_.statistics;
    if (!statistics.enabled) return;
    require_real(statistics.start_time >= 0, "statistics.start_time", statistics.start_time, ">= 0");
    if (statistics.interval_steps < 1) {
      fail("statistics.interval_steps",
           "got " + std::to_string(statistics.interval_steps) + "; allowed: an integer >= 1 (steps between samples)");
    }
    require_real(statistics.interval_time >= 0, "statistics.interval_time", statistics.interval_time,
                 ">= 0 (0: with the field output and at the end)");
    if (deck_.scalars.size() > 8) {
      fail("statistics", "the deck transports " + std::to_string(deck_.scalars.size()) +
                             " scalars; allowed: statistics of at most 8 scalars");
    }
    const int dims = deck_.domain.dimensions;
    int averaged = 0;
    for (int a = 0; a < dims; ++a) averaged += statistics.average_over[a] ? 1 : 0;
    if (averaged != 0 && averaged != dims - 1) {
      fail("statistics.average_over", "got " + std::to_string(averaged) + " of " + std::to_string(dims) +
                                          " axes; allowed: none (3D means only) or all axes but one (profiles along "
                                          "the axis left)");
    }
  }

  const Deck& deck_;
  const SourceMap& where_;
};

}  // namespace

void validate_physics(const Deck& deck, const SourceMap& where) { PhysicsChecker(deck, where).check_all(); }

}  // namespace eddy::config
