#pragma once
// YAML spellings of the coupled-physics enums (scalar boundaries and initial fields, body shapes).
#include "config/names.hpp"

namespace eddy::config {

template <>
const std::vector<std::pair<ScalarBoundaryType, std::string_view>>& enum_names<ScalarBoundaryType>();
template <>
const std::vector<std::pair<ScalarInitialType, std::string_view>>& enum_names<ScalarInitialType>();
template <>
const std::vector<std::pair<BodyShape, std::string_view>>& enum_names<BodyShape>();

}  // namespace eddy::config
