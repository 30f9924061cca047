#include "config/schema.hpp"

#include "config/names.hpp"
#include "config/schema_physics.hpp"

#include <map>

namespace eddy::config {
namespace {

// The keys a deck struct declares for its section (config/deck.hpp).
template <std::size_t N>
std::vector<std::string> listed(const std::array<std::string_view, N>& keys) {
  return {keys.begin(), keys.end()};
}

}  // namespace

const std::vector<std::string>* section_keys(const std::string& path) {
  static const std::map<std::string, std::vector<std::string>> sections{
      {"",
       {"name", "domain", "physics", "boundary", "initial", "time", "numerics", "pressure", "output", "parallel",
        "tuning", "scalars", "bodies", "probes", "lines", "planes", "statistics", "constants"}},
      {"domain", listed(DomainConfig::deck_keys)},
      {"domain.stretching", {"x", "y", "z"}},
      {"domain.stretching.x", listed(StretchingConfig::deck_keys)},
      {"domain.stretching.y", listed(StretchingConfig::deck_keys)},
      {"domain.stretching.z", listed(StretchingConfig::deck_keys)},
      {"physics", listed(PhysicsConfig::deck_keys)},
      {"physics.drive", {"axis", "bulk_velocity", "pressure_gradient"}},
      {"statistics", listed(StatisticsConfig::deck_keys)},
      {"boundary", {"default", "x_low", "x_high", "y_low", "y_high", "z_low", "z_high"}},
      {"initial", listed(InitialConfig::deck_keys)},
      {"time", listed(TimeConfig::deck_keys)},
      {"time.dt", {"adaptive", "initial"}},
      {"numerics", listed(NumericsConfig::deck_keys)},
      {"pressure", listed(PoissonConfig::deck_keys)},
      {"output", listed(OutputConfig::deck_keys)},
      {"parallel", listed(ParallelConfig::deck_keys)},
      {"tuning", listed(TuningConfig::deck_keys)},
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
  const auto guess = nearest_word(key, allowed);
  text += guess.empty() ? "." : "; did you mean '" + guess + "'?";
  return text + " Allowed keys: " + join_words(allowed);
}

}  // namespace eddy::config
