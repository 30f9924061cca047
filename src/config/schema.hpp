#pragma once
// The set of keys a deck may contain, section by section: the contract documented in inputs/README.md.
#include <string>
#include <vector>

namespace eddy::config {

/// The keys allowed in the section at `path` ("" is the top level; "boundary.x_low", "time.dt", ...), or nullptr
/// when `path` names a value rather than a section.
const std::vector<std::string>* section_keys(const std::string& path);

}  // namespace eddy::config

namespace eddy::config {

/// "unknown key 'viscosty' in section 'physics'; did you mean 'viscosity'? Allowed keys: ..." for `section`.
std::string unknown_key_problem(const std::string& section, const std::string& key);

/// `section.key`, or `key` at the top level.
inline std::string key_path(const std::string& section, const std::string& key) {
  return section.empty() ? key : section + "." + key;
}

}  // namespace eddy::config
