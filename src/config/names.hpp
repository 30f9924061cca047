#pragma once
// The spelling of every deck enum in YAML, in one table per enum: used by the parser, the printer and the logs.
#include "config/deck.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eddy::config {

/// The deck's name of an axis: x, y or z.
inline std::string axis_letter(int axis) { return std::string(1, "xyz"[axis]); }

/// The (value, YAML name) table of an enum; specialised for every enum of the deck.
template <class Enum>
const std::vector<std::pair<Enum, std::string_view>>& enum_names();

/// The YAML name of an enum value.
template <class Enum>
std::string to_string(Enum value) {
  for (const auto& [v, name] : enum_names<Enum>()) {
    if (v == value) return std::string(name);
  }
  return "?";
}

/// The enum value named `name`, or nothing if the name is not in the table.
template <class Enum>
std::optional<Enum> from_string(std::string_view name) {
  for (const auto& [v, n] : enum_names<Enum>()) {
    if (n == name) return v;
  }
  return std::nullopt;
}

/// Every YAML name of an enum, in table order.
template <class Enum>
std::vector<std::string> allowed_names() {
  std::vector<std::string> names;
  for (const auto& entry : enum_names<Enum>()) names.emplace_back(entry.second);
  return names;
}

template <>
const std::vector<std::pair<BoundaryType, std::string_view>>& enum_names<BoundaryType>();
template <>
const std::vector<std::pair<InflowProfile, std::string_view>>& enum_names<InflowProfile>();
template <>
const std::vector<std::pair<OutflowType, std::string_view>>& enum_names<OutflowType>();
template <>
const std::vector<std::pair<InitialType, std::string_view>>& enum_names<InitialType>();
template <>
const std::vector<std::pair<TimeScheme, std::string_view>>& enum_names<TimeScheme>();
template <>
const std::vector<std::pair<AdvectionScheme, std::string_view>>& enum_names<AdvectionScheme>();
template <>
const std::vector<std::pair<PoissonSolverType, std::string_view>>& enum_names<PoissonSolverType>();
template <>
const std::vector<std::pair<SmootherType, std::string_view>>& enum_names<SmootherType>();
template <>
const std::vector<std::pair<CycleType, std::string_view>>& enum_names<CycleType>();
template <>
const std::vector<std::pair<CommBackend, std::string_view>>& enum_names<CommBackend>();
template <>
const std::vector<std::pair<Hdf5Writes, std::string_view>>& enum_names<Hdf5Writes>();
template <>
const std::vector<std::pair<Clustering, std::string_view>>& enum_names<Clustering>();

/// Face names in BoundaryConfig order: x_low, x_high, y_low, y_high, z_low, z_high.
inline constexpr std::string_view face_names[6] = {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"};

}  // namespace eddy::config
