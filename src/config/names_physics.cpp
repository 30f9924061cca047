#include "config/names_physics.hpp"

namespace eddy::config {

template <>
const std::vector<std::pair<ScalarBoundaryType, std::string_view>>& enum_names<ScalarBoundaryType>() {
  static const std::vector<std::pair<ScalarBoundaryType, std::string_view>> table{
      {ScalarBoundaryType::value, "value"},         {ScalarBoundaryType::flux, "flux"},
      {ScalarBoundaryType::adiabatic, "adiabatic"}, {ScalarBoundaryType::periodic, "periodic"},
      {ScalarBoundaryType::inflow, "inflow"},       {ScalarBoundaryType::outflow, "outflow"}};
  return table;
}

template <>
const std::vector<std::pair<ScalarInitialType, std::string_view>>& enum_names<ScalarInitialType>() {
  static const std::vector<std::pair<ScalarInitialType, std::string_view>> table{
      {ScalarInitialType::uniform, "uniform"},
      {ScalarInitialType::linear, "linear"},
      {ScalarInitialType::random, "random"},
      {ScalarInitialType::expression, "expression"}};
  return table;
}

template <>
const std::vector<std::pair<BodyShape, std::string_view>>& enum_names<BodyShape>() {
  static const std::vector<std::pair<BodyShape, std::string_view>> table{{BodyShape::circle, "circle"},
                                                                         {BodyShape::sphere, "sphere"},
                                                                         {BodyShape::cylinder, "cylinder"},
                                                                         {BodyShape::box, "box"}};
  return table;
}

}  // namespace eddy::config
