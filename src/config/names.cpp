#include "config/names.hpp"

namespace eddy::config {

template <>
const std::vector<std::pair<BoundaryType, std::string_view>>& enum_names<BoundaryType>() {
  static const std::vector<std::pair<BoundaryType, std::string_view>> table{
      {BoundaryType::periodic, "periodic"},       {BoundaryType::no_slip, "no_slip"},
      {BoundaryType::moving_wall, "moving_wall"}, {BoundaryType::free_slip, "free_slip"},
      {BoundaryType::inflow, "inflow"},           {BoundaryType::outflow, "outflow"}};
  return table;
}

template <>
const std::vector<std::pair<InflowProfile, std::string_view>>& enum_names<InflowProfile>() {
  static const std::vector<std::pair<InflowProfile, std::string_view>> table{{InflowProfile::uniform, "uniform"},
                                                                             {InflowProfile::parabolic, "parabolic"}};
  return table;
}

template <>
const std::vector<std::pair<OutflowType, std::string_view>>& enum_names<OutflowType>() {
  static const std::vector<std::pair<OutflowType, std::string_view>> table{
      {OutflowType::zero_gradient, "zero_gradient"}, {OutflowType::convective, "convective"}};
  return table;
}

template <>
const std::vector<std::pair<InitialType, std::string_view>>& enum_names<InitialType>() {
  static const std::vector<std::pair<InitialType, std::string_view>> table{{InitialType::rest, "rest"},
                                                                           {InitialType::uniform, "uniform"},
                                                                           {InitialType::taylor_green, "taylor_green"},
                                                                           {InitialType::random, "random"},
                                                                           {InitialType::expression, "expression"}};
  return table;
}

template <>
const std::vector<std::pair<TimeScheme, std::string_view>>& enum_names<TimeScheme>() {
  static const std::vector<std::pair<TimeScheme, std::string_view>> table{
      {TimeScheme::rk3, "rk3"}, {TimeScheme::ssp_rk3, "ssp_rk3"}, {TimeScheme::euler, "euler"}};
  return table;
}

template <>
const std::vector<std::pair<AdvectionScheme, std::string_view>>& enum_names<AdvectionScheme>() {
  static const std::vector<std::pair<AdvectionScheme, std::string_view>> table{{AdvectionScheme::central, "central"},
                                                                               {AdvectionScheme::upwind, "upwind"}};
  return table;
}

template <>
const std::vector<std::pair<PoissonSolverType, std::string_view>>& enum_names<PoissonSolverType>() {
  static const std::vector<std::pair<PoissonSolverType, std::string_view>> table{
      {PoissonSolverType::multigrid, "multigrid"},
      {PoissonSolverType::mg_cg, "mg_cg"},
      {PoissonSolverType::cg, "cg"},
      {PoissonSolverType::jacobi, "jacobi"}};
  return table;
}

template <>
const std::vector<std::pair<SmootherType, std::string_view>>& enum_names<SmootherType>() {
  static const std::vector<std::pair<SmootherType, std::string_view>> table{
      {SmootherType::red_black_gauss_seidel, "red_black_gauss_seidel"},
      {SmootherType::jacobi, "jacobi"},
      {SmootherType::chebyshev, "chebyshev"}};
  return table;
}

template <>
const std::vector<std::pair<CycleType, std::string_view>>& enum_names<CycleType>() {
  static const std::vector<std::pair<CycleType, std::string_view>> table{
      {CycleType::v, "v"}, {CycleType::w, "w"}, {CycleType::f, "f"}};
  return table;
}

template <>
const std::vector<std::pair<CommBackend, std::string_view>>& enum_names<CommBackend>() {
  static const std::vector<std::pair<CommBackend, std::string_view>> table{{CommBackend::automatic, "auto"},
                                                                           {CommBackend::mpi, "mpi"},
                                                                           {CommBackend::nccl, "nccl"},
                                                                           {CommBackend::peer, "peer"}};
  return table;
}

template <>
const std::vector<std::pair<Hdf5Writes, std::string_view>>& enum_names<Hdf5Writes>() {
  static const std::vector<std::pair<Hdf5Writes, std::string_view>> table{{Hdf5Writes::automatic, "auto"},
                                                                          {Hdf5Writes::collective, "collective"},
                                                                          {Hdf5Writes::token_passing, "token_passing"}};
  return table;
}

template <>
const std::vector<std::pair<Clustering, std::string_view>>& enum_names<Clustering>() {
  static const std::vector<std::pair<Clustering, std::string_view>> table{
      {Clustering::both, "both"}, {Clustering::low, "low"}, {Clustering::high, "high"}};
  return table;
}

}  // namespace eddy::config
