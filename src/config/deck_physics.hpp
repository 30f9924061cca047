#pragma once
// Deck structs of the coupled physics: transported scalars (temperature, dye) and immersed solid bodies.
// Defaults live here; config/parse_physics.cpp fills them and config/validate_physics.cpp checks them.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::config {

/// Scalar boundary condition on one face of the domain:
///   value      ghost = 2 value - interior (the face carries `value`)
///   flux       diffusive flux `value` entering the domain (kappa dT/dn with n the outward normal)
///   adiabatic  zero flux (ghost = interior)
///   periodic   wrap (the velocity must be periodic on the same axis)
///   inflow     the face carries `value` (like `value`; for inflow faces of the velocity)
///   outflow    zero gradient (ghost = interior)
enum class ScalarBoundaryType { value, flux, adiabatic, periodic, inflow, outflow };

struct ScalarFace {
  ScalarBoundaryType type = ScalarBoundaryType::adiabatic;
  double value = 0;
  std::string expression;  ///< `value` as an expression of x, y, z, t and the constants (empty: the number)

  bool operator==(const ScalarFace&) const = default;
};

enum class ScalarInitialType { uniform, linear, random, expression };

/// Initial scalar field: uniform `value`; linear from `low` at the low face to `high` at the high face of `axis`;
/// random: `value` plus the perturbation. `amplitude` adds a rank-independent perturbation in [-1, 1] to any type.
struct ScalarInitial {
  ScalarInitialType type = ScalarInitialType::uniform;
  double value = 0;
  int axis = 1;
  double low = 0, high = 0;
  double amplitude = 0;
  unsigned long long seed = 2024;
  std::string expression = "0";  ///< type expression: the value at the cell centres (config/expression.hpp)

  bool operator==(const ScalarInitial&) const = default;
};

/// One transported cell-centred scalar.
struct ScalarConfig {
  std::string name = "temperature";
  double diffusivity = 0;  ///< kappa; 0 = pure advection
  ScalarInitial initial;
  std::array<ScalarFace, 6> boundary{};  ///< faces in BoundaryConfig order; defaults follow the velocity faces
  std::string source = "0";  ///< a source (units of the scalar per time): an expression of x, y, z, t, constants

  bool operator==(const ScalarConfig&) const = default;
};

enum class BodyShape { circle, sphere, cylinder, box };

/// An immersed solid body at rest. circle: 2D disc; sphere: 3D; cylinder: 3D, infinite along `axis`; box:
/// axis-aligned with edge lengths `size`. Force coefficients are F / (0.5 rho U^2 A) with U the reference velocity
/// and A the reference area: reference_length in 2D (forces per unit depth), reference_area in 3D.
struct BodyConfig {
  std::string name = "body";
  BodyShape shape = BodyShape::circle;
  std::array<double, 3> center{0, 0, 0};
  double radius = 0.5;
  int axis = 2;
  std::array<double, 3> size{1, 1, 1};
  double reference_velocity = 1;
  double reference_length = 0;  ///< 0: the diameter (box: its y size)
  double reference_area = 0;    ///< 3D only; 0: the frontal area seen along x

  bool operator==(const BodyConfig&) const = default;
};

/// A point where every step records the velocity, the pressure and the scalars (deck section `probes`), interpolated
/// from the grid; on or inside a body, extrapolated from the fluid along the surface normal.
struct ProbeConfig {
  std::string name = "probe";
  std::array<double, 3> at{0, 0, 0};

  bool operator==(const ProbeConfig&) const = default;
};

/// A straight line of evenly spaced probes, written as lines/<name>_<step>.csv (deck section `lines`) every
/// interval_time (0: with the field output), at the first step at or after each multiple.
struct LineConfig {
  std::string name = "line";
  std::array<double, 3> from{0, 0, 0};
  std::array<double, 3> to{0, 0, 0};
  int points = 101;
  double interval_time = 0;

  bool operator==(const LineConfig&) const = default;
};

/// A plane of cells normal to `axis` (deck section `planes`): the cell-centred velocity, pressure and scalars of the
/// layer of cells whose centres lie nearest `at`, written as planes/<name>_<step>.h5 every interval_time (0: with the
/// field output), at the first step at or after each multiple.
struct PlaneConfig {
  std::string name = "plane";
  int axis = 2;
  double at = 0;
  double interval_time = 0;

  bool operator==(const PlaneConfig&) const = default;
};

/// How a flow periodic along `axis` is driven (deck key physics.drive): `flow_rate` holds the bulk velocity (the mean
/// of that velocity component over the domain) at `value` after every stage, with the pressure gradient this takes
/// reported every step; `pressure_gradient` adds the constant acceleration `value` (-dp/dx / rho) along the axis.
enum class DriveType { none, flow_rate, pressure_gradient };

struct DriveConfig {
  DriveType type = DriveType::none;
  int axis = 0;
  double value = 0;

  bool operator==(const DriveConfig&) const = default;
};

/// Running time averages (deck section `statistics`): from start_time on, every `interval_steps` steps, the means of
/// u, v, w, p and the scalars at the cell centres and their second moments, weighted by the time each sample stands
/// for; averaged over the axes in `average_over` into profiles along the one axis left, written with the 3D means every
/// interval_time (0: with the field output) and at the end of the run, and carried in checkpoints.
struct StatisticsConfig {
  bool enabled = false;
  double start_time = 0;
  long long interval_steps = 1;
  std::array<bool, 3> average_over{false, false, false};
  double interval_time = 0;

  /// The keys of the deck section `statistics`.
  static constexpr std::array<std::string_view, 4> deck_keys{"start_time", "interval_steps", "average_over",
                                                             "interval_time"};

  bool operator==(const StatisticsConfig&) const = default;
};

}  // namespace eddy::config
