#pragma once
// `--set key.path=value` overrides, applied to the deck tree before it is read.
#include "config/source_map.hpp"

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace eddy::config {

/// Sets each `key.path=value` (value in YAML: 0.1, [64, 64], {type: periodic}) in `root`, in order, recording them
/// in `where`; throws eddy::Error naming the override when it is malformed or names an unknown key.
void apply_overrides(YAML::Node& root, const std::vector<std::string>& overrides, SourceMap& where);

}  // namespace eddy::config
