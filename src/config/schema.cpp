#include "config/schema.hpp"

#include "config/names.hpp"
#include "config/schema_physics.hpp"

#include <map>

namespace eddy::config {

const std::vector<std::string>* section_keys(const std::string& path) {
  static const std::map<std::string, std::vector<std::string>> sections{
      {"",
       {"name", "domain", "physics", "boundary", "initial", "time", "numerics", "pressure", "output", "parallel",
        "tuning", "scalars", "bodies"}},
      {"domain", {"dimensions", "cells", "length", "origin"}},
      {"physics",
       {"viscosity", "reynolds", "density", "rayleigh", "prandtl", "beta_g", "reference_temperature", "gravity"}},
      {"boundary", {"default", "x_low", "x_high", "y_low", "y_high", "z_low", "z_high"}},
      {"initial", {"type", "velocity", "amplitude", "seed"}},
      {"time", {"scheme", "dt", "cfl", "viscous_safety", "end_time", "max_steps", "wall_time_limit"}},
      {"time.dt", {"adaptive", "initial"}},
      {"numerics", {"advection"}},
      {"pressure",
       {"solver", "rtol", "intermediate_rtol", "atol", "max_iterations", "smoother", "cycle", "pre_smooth",
        "post_smooth", "relaxation", "check_every", "gather_coarse_levels"}},
      {"output",
       {"directory", "overwrite", "interval_steps", "interval_time", "fields", "checkpoint_interval_steps",
        "keep_checkpoints", "log_interval", "exact_phase_times"}},
      {"parallel", {"process_grid", "halo_backend", "reduction_backend", "overlap"}},
      {"tuning", {"pair_planes", "hdf5_writes"}},
  };
  static const std::vector<std::string> face_keys{"type", "velocity", "profile", "kind"};
  if (auto found = sections.find(path); found != sections.end()) return &found->second;
  if (auto keys = physics_section_keys(path)) return keys;
  if (path == "boundary.default") return &face_keys;
  for (auto face : face_names) {
    if (path == "boundary." + std::string(face)) return &face_keys;
  }
  return nullptr;
}

}  // namespace eddy::config

#include "config/suggest.hpp"

namespace eddy::config {

std::string unknown_key_problem(const std::string& section, const std::string& key) {
  const auto& allowed = *section_keys(section);
  std::string text =
      "unknown key '" + key + "' " + (section.empty() ? "at the top level" : "in section '" + section + "'");
  if (auto guess = nearest_word(key, allowed); !guess.empty()) text += "; did you mean '" + guess + "'?";
  return text + " Allowed keys: " + join_words(allowed);
}

}  // namespace eddy::config
