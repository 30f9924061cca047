#pragma once
// Force coefficients of immersed bodies and the shedding frequency of their lift.
//   C = F / (0.5 rho U^2 A), with A = D in 2D (forces per unit depth: C = 2 F' / (rho U^2 D)) and the frontal
//   area in 3D (pi r^2 for a sphere); drag along x, lift along y (and side force along z in 3D).
//   Strouhal number St = f D / U, f from the zero up-crossings of the lift coefficient about its mean over the last
//   half of the record.
#include "config/deck.hpp"

#include <vector>

namespace eddy::physics {

/// Reference velocity, length and area of a body's coefficients.
struct BodyReference {
  double velocity = 1;
  double length = 1;
  double area = 1;
};

/// The reference scales of `body` in `deck` (defaults: diameter, frontal area; in 2D the length, per unit depth).
BodyReference body_reference(const config::BodyConfig& body, const config::Deck& deck);

/// St = f D / U of the lift record (times, lift coefficients); 0 when the last half shows fewer than two full
/// periods or a peak-to-peak amplitude below `min_amplitude`.
double strouhal_number(const std::vector<double>& times, const std::vector<double>& lift, const BodyReference& ref,
                       double min_amplitude = 1e-3);

}  // namespace eddy::physics
