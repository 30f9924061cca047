#include "config/overrides.hpp"

#include "config/schema.hpp"
#include "core/error.hpp"

namespace eddy::config {
namespace {

std::vector<std::string> split_key_path(const std::string& path) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    keys.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return keys;
    start = dot + 1;
  }
}

// Keys that say the same thing in two ways: setting one drops the other, so `--set physics.reynolds=400` works on
// a deck that gives a viscosity.
std::string alternative_key(const std::string& path) {
  if (path == "physics.viscosity") return "reynolds";
  if (path == "physics.reynolds") return "viscosity";
  return "";
}

void apply_one(YAML::Node& root, const std::string& text, SourceMap& where) {
  const auto equals = text.find('=');
  const std::string path = text.substr(0, equals);
  const auto fail = [&](const std::string& problem) { throw Error("--set " + text + ": " + problem); };
  if (equals == std::string::npos || path.empty()) fail("expected key.path=value, e.g. physics.viscosity=0.001");
  const std::string value_text = text.substr(equals + 1);

  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    fail("the value '" + value_text + "' is not valid YAML (" + e.msg + ")");
  }
  if (value.IsNull()) fail("no value given after '='");

  const auto keys = split_key_path(path);
  YAML::Node section = root;
  std::string section_path;
  for (std::size_t n = 0; n < keys.size(); ++n) {
    const auto* allowed = section_keys(section_path);
    // The deck's constants take any name; the deck reader checks it.
    const bool any_name = section_path == "constants";
    if (allowed == nullptr && !any_name) fail("'" + section_path + "' is a value, not a section with keys");
    if (keys[n].empty()) fail("empty key in '" + path + "'");
    bool known = any_name;
    for (const auto& k : any_name ? std::vector<std::string>{} : *allowed) known = known || k == keys[n];
    if (!known) fail(unknown_key_problem(section_path, keys[n]));
    if (n + 1 == keys.size()) {
      section[keys[n]] = value;
      if (auto other = alternative_key(path); !other.empty()) section.remove(other);
    } else {
      if (!section[keys[n]].IsMap()) section[keys[n]] = YAML::Node(YAML::NodeType::Map);
      section.reset(section[keys[n]]);
      section_path = key_path(section_path, keys[n]);
    }
  }
  where.record_override(path, text);
}

}  // namespace

void apply_overrides(YAML::Node& root, const std::vector<std::string>& overrides, SourceMap& where) {
  for (const auto& text : overrides) apply_one(root, text, where);
}

}  // namespace eddy::config
