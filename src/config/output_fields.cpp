#include "config/output_fields.hpp"

#include <algorithm>

namespace eddy::config {

const std::vector<std::string>& flow_output_fields() {
  static const std::vector<std::string> names{"velocity", "pressure", "vorticity", "q_criterion"};
  return names;
}

std::vector<std::string> allowed_output_fields(const Deck& deck) {
  std::vector<std::string> names = flow_output_fields();
  names.push_back(all_scalars_entry);
  for (const auto& scalar : deck.scalars) names.push_back(scalar.name);
  return names;
}

std::vector<std::string> output_arrays(const Deck& deck) {
  const auto& listed = deck.output.fields;
  auto wants = [&](const std::string& name) { return std::find(listed.begin(), listed.end(), name) != listed.end(); };
  std::vector<std::string> arrays;
  for (const auto& name : flow_output_fields()) {
    const bool implied = name == "q_criterion" && deck.domain.dimensions == 3 && wants("vorticity");
    if (wants(name) || implied) arrays.push_back(name);
  }
  for (const auto& scalar : deck.scalars) {
    if (wants(all_scalars_entry) || wants(scalar.name)) arrays.push_back(scalar.name);
  }
  return arrays;
}

}  // namespace eddy::config
