#include "config/schema_physics.hpp"

#include "config/names.hpp"

namespace eddy::config {
namespace {

// `path` with a leading "list[n]" replaced by "list[]" when it starts with `list`; empty otherwise.
std::string without_index(const std::string& path, const std::string& list) {
  if (path.rfind(list + "[", 0) != 0) return "";
  const auto close = path.find(']');
  if (close == std::string::npos) return "";
  return list + "[]" + path.substr(close + 1);
}

}  // namespace

const std::vector<std::string>* physics_section_keys(const std::string& path) {
  static const std::vector<std::string> scalar_keys{"name", "diffusivity", "initial", "boundary", "source"};
  static const std::vector<std::string> initial_keys{"type", "value", "axis", "low", "high", "amplitude", "seed"};
  static const std::vector<std::string> boundary_keys{"default", "x_low", "x_high", "y_low",
                                                      "y_high",  "z_low", "z_high"};
  static const std::vector<std::string> face_keys{"type", "value"};
  static const std::vector<std::string> body_keys{
      "name", "shape", "center", "radius", "axis", "size", "reference_velocity", "reference_length", "reference_area"};
  if (const auto scalar = without_index(path, "scalars"); !scalar.empty()) {
    if (scalar == "scalars[]") return &scalar_keys;
    if (scalar == "scalars[].initial") return &initial_keys;
    if (scalar == "scalars[].boundary") return &boundary_keys;
    if (scalar == "scalars[].boundary.default") return &face_keys;
    for (auto face : face_names) {
      if (scalar == "scalars[].boundary." + std::string(face)) return &face_keys;
    }
  }
  if (without_index(path, "bodies") == "bodies[]") return &body_keys;
  static const std::vector<std::string> probe_keys{"name", "at"};
  if (without_index(path, "probes") == "probes[]") return &probe_keys;
  static const std::vector<std::string> line_keys{"name", "from", "to", "points", "interval_time"};
  if (without_index(path, "lines") == "lines[]") return &line_keys;
  static const std::vector<std::string> plane_keys{"name", "axis", "at", "interval_time"};
  if (without_index(path, "planes") == "planes[]") return &plane_keys;
  return nullptr;
}

}  // namespace eddy::config
