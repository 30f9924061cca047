#pragma once
// Stage coefficients of the explicit integrators. Each stage computes
//   u* = u_k + dt (gamma_k RHS_k + zeta_k RHS_{k-1}),  then projects u* with the weight alpha_k = gamma_k + zeta_k.
// Wray's low-storage RK3 (third order; sum of alpha = 1) and forward Euler (first order, for the time-order test).
#include "config/deck.hpp"

#include <array>

namespace eddy::time {

/// The coefficients of one stage.
struct Stage {
  double gamma = 1, zeta = 0;
  /// Weight of this stage's pressure projection and share of the step's time.
  double alpha() const { return gamma + zeta; }
};

/// The stages of an integrator.
struct StageTable {
  std::array<Stage, 3> stages{};
  int count = 1;
};

/// Stages of the scheme the deck asks for.
inline StageTable stage_table(config::TimeScheme scheme) {
  if (scheme == config::TimeScheme::euler) return {{Stage{1.0, 0.0}}, 1};
  return {{Stage{8.0 / 15.0, 0.0}, Stage{5.0 / 12.0, -17.0 / 60.0}, Stage{3.0 / 4.0, -5.0 / 12.0}}, 3};
}

}  // namespace eddy::time
