#pragma once
// Wall-bounded flow in wall units, from the time-averaged profiles across a channel: the wall shear from the mean
// streamwise velocity's slope at each wall, then u_tau = sqrt(tau_w / rho), Re_tau = u_tau h / nu with the half
// height h, and the skin friction C_f = tau_w / (rho U_b^2 / 2) with the bulk velocity U_b (the profile's mean).
#include "config/deck.hpp"
#include "physics/flow_statistics.hpp"

#include <optional>
#include <string>
#include <vector>

namespace eddy::physics {

struct WallUnits {
  int streamwise = 0;            ///< the velocity component taken as streamwise
  double half_height = 0;        ///< h
  double bulk_velocity = 0;      ///< U_b
  double wall_shear = 0;         ///< tau_w / rho, the mean of both walls
  double friction_velocity = 0;  ///< u_tau
  double re_tau = 0;             ///< u_tau h / nu
  double skin_friction = 0;      ///< tau_w / (rho U_b^2 / 2)
};

/// Wall units of the profiles where both ends of their axis are walls (no-slip or moving) and the flow has a
/// streamwise axis (physics.drive's, else the first other axis) with shear at the walls; nothing otherwise.
std::optional<WallUnits> wall_units(const StatisticsProfiles& profiles, const config::Deck& deck);

/// The Nusselt number of a scalar's mean at one wall.
struct WallNusselt {
  std::string scalar, face;
  double value = 0;  ///< |dS/dn| L / |S_low - S_high| with L the length of the profile axis
};

/// The wall Nusselt numbers of every scalar whose value is fixed (a number) on both ends of the profile axis and
/// differs between them.
std::vector<WallNusselt> wall_nusselt(const StatisticsProfiles& profiles, const config::Deck& deck);

/// The walls at the ends of the profile axis, as face names ("y_low y_high"; empty when none).
std::string profile_walls(int axis, const config::Deck& deck);

}  // namespace eddy::physics
