#pragma once
// Stage coefficients of the explicit integrators. Each stage computes
//   u* = u_k + dt (gamma_k RHS_k + zeta_k RHS_{k-1}) + beta_k (u_0 - u_k),  then projects u* with the weight
//   alpha_k = gamma_k + zeta_k,
// where u_0 is the velocity the step started from. Three schemes:
//   rk3      Wray's low-storage RK3 (beta = 0; third order; sum of alpha = 1), the default;
//   ssp_rk3  the strong-stability-preserving RK3 of Shu and Osher (zeta = 0): stage k blends the step's start with a
//            forward-Euler step of u_k, so no stage reads an earlier right-hand side. It is third order with the same
//            linear stability as rk3, and a stage reads one field fewer per component (no RHS_{k-1} is kept);
//   euler    forward Euler (first order, for the time-order test).
#include "config/deck.hpp"

#include <array>

namespace eddy::time {

/// The coefficients of one stage.
struct Stage {
  double gamma = 1, zeta = 0, beta = 0;
  /// The weight of this stage's body forces in the step's force (they sum to 1 over the stages): the stage's share of
  /// the step's time, alpha, for rk3; for ssp_rk3 its right-hand side's weight in the step's result (1/6, 1/6, 2/3).
  double force_weight = 1;
  /// The time of this stage's right-hand side, as a fraction of the step after its start.
  double time = 0;
  /// Weight of this stage's pressure projection.
  double alpha() const { return gamma + zeta; }
};

/// The stages of an integrator.
struct StageTable {
  std::array<Stage, 3> stages{};
  int count = 1;
  /// True when stage `s + 1` reads the right-hand side of stage s.
  bool next_reads_tendency(int s) const { return s + 1 < count && stages[s + 1].zeta != 0; }
  /// True when some stage reads the right-hand side of the stage before.
  bool reads_tendency() const {
    for (int s = 0; s < count; ++s) {
      if (stages[s].zeta != 0) return true;
    }
    return false;
  }
};

/// Stages of the scheme the deck asks for.
inline StageTable stage_table(config::TimeScheme scheme) {
  switch (scheme) {
    case config::TimeScheme::euler:
      return {{Stage{1.0, 0.0, 0.0, 1.0}}, 1};
    case config::TimeScheme::ssp_rk3:
      return {{Stage{1.0, 0.0, 0.0, 1.0 / 6.0, 0.0}, Stage{1.0 / 4.0, 0.0, 3.0 / 4.0, 1.0 / 6.0, 1.0},
               Stage{2.0 / 3.0, 0.0, 1.0 / 3.0, 2.0 / 3.0, 0.5}},
              3};
    case config::TimeScheme::rk3:
      break;
  }
  return {{Stage{8.0 / 15.0, 0.0, 0.0, 8.0 / 15.0, 0.0},
           Stage{5.0 / 12.0, -17.0 / 60.0, 0.0, 5.0 / 12.0 - 17.0 / 60.0, 8.0 / 15.0},
           Stage{3.0 / 4.0, -5.0 / 12.0, 0.0, 3.0 / 4.0 - 5.0 / 12.0, 2.0 / 3.0}},
          3};
}

}  // namespace eddy::time
