#pragma once
// The initial guess of each Runge-Kutta stage's pressure solve. A stage k >= 1 projects
//   u* = u_k + dt (gamma_k R_k + zeta_k R_{k-1})  with the weight alpha_k dt,
// so its pressure is (gamma_k q_k + zeta_k q_{k-1}) / alpha_k with q = L^-1 div R: a combination that amplifies the
// change of q between stages (by 3.1 in the second stage of Wray's RK3). Warm-started from the previous stage's
// pressure, the second stage's solve starts ten times further from its solution than the first stage's. The change
// of pressure between two stages varies slowly from one step to the next, so stage k starts instead from
//   p_{k-1} + (p_k - p_{k-1}) of the previous step.
// In the order of the solves, with S stages a step, solve m + 1 of stage k >= 1 thus starts from
// q_m + q_{m+1-S} - q_{m-S}: the pressures of the last S + 1 solves are kept in S + 1 buffers (the pressure field and
// S more), and the guess overwrites the oldest, the one it reads last. So a guess is one streaming kernel (three
// reads, one write) and nothing is copied after a solve. Under Wray's RK3 stage 0 starts from a copy of the last
// stage's pressure, which stage S - 1 reads in the next step: the last stage ends at the step's end, and the same
// extrapolation took a 512^3 Taylor-Green step at a Courant number of 0.25 from 1.4 to 2.0 V-cycles on an H200 (the
// change it adds is O(dt) and no larger than the solves' own errors there), though 128^3 from 3.0 to 2.3.
// The SSP RK3 (`ssp_stage_times`) evaluates its right-hand sides at t, t + dt and t + dt / 2, and its stage
// pressures approximate p at those times. Each stage starts from the pressures nearest in time:
//   stage 0 (t): the last step's stage 1 pressure (its t + dt), q_{m-1}, a copy;
//   stage 1 (t + dt): the extrapolation above, q_m + q_{m-2} - q_{m-3};
//   stage 2 (t + dt / 2): the mean of this step's two, (q_m + q_{m-1}) / 2.
// A guess that reads fewer solves carries fewer of their errors: against the extrapolation for every stage these took
// the 512^3 step from 2.05 to 1.65 V-cycles and 64^3 from 3.0 to 2.3 on an H200. The first step and the next stage
// start from a copy too. Checkpoints hold the S pressures before the last, so a restart continues with the same
// guesses. The pressure a step starts from is the newest kept one after its first solve and the oldest after its
// last, so it also serves as the last good state's pressure, without a copy of its own.
// Where the next step's first guess is a copy of the last pressure (Wray's RK3), that copy also removes the pressure's
// mean (end_step): the last solve leaves its mean, the copy p - mean becomes the pressure of the step's end (and the
// next step's first guess), and the solve's own result the newest kept pressure. One streaming kernel (one read, one
// write) in place of two: the pin's in place and the copy's. Checkpoints then hold that result as
// pressure_before_0, beside the pinned pressure.
#include "core/types.hpp"
#include "fields/field.hpp"

#include <string>
#include <vector>

namespace eddy::time {

class PressureGuess {
 public:
  /// Guesses for a scheme of `stages` stages on fields of `shape`; schemes of one stage start each solve from the
  /// pressure as it is. `ssp_stage_times`: the three stages of the SSP RK3, whose pressures lie at t, t + dt and
  /// t + dt / 2.
  PressureGuess(const fields::LocalShape& shape, int stages, bool ssp_stage_times = false);
  /// Before stage `stage`'s solve: its initial guess, written into the buffer of the oldest kept pressure, which `p`
  /// names on return; the pressure `p` named before is kept.
  void before_solve(Field& p, int stage);
  /// After a solve: the pressure is a solve's result (the pressure a run starts with is not).
  void after_solve() { solved_ = true; }
  /// Whether end_step() removes the pressure's mean after a step (the last solve then leaves it).
  bool removes_mean_at_step_end() const { return !kept_.empty() && !ssp_stage_times_; }
  /// After a step whose last solve left `mean` in `p` (where removes_mean_at_step_end()): p - mean, the next step's
  /// first guess, is written into the oldest kept buffer, which `p` names on return; the solve's result is kept.
  void end_step(Field& p, Real mean);
  /// The kept pressures that guesses will read, named for a checkpoint (a restart continues with them bit for bit).
  std::vector<fields::NamedField> recorded_fields() const;
  /// Every kept pressure under the names recorded_fields() gives them, to read a checkpoint into (the names of a
  /// checkpoint written after end_step() or without it; pressure_before_0 and pressure_before_<S> share a buffer).
  std::vector<fields::NamedField> all_fields() const;
  /// Marks the kept pressures of `names` known (read from a checkpoint into all_fields(), whose pressure a solve or
  /// end_step() returned); a checkpoint with pressure_before_0 continues from end_step()'s first guess, its pressure
  /// `p`, whose owned values give back the mean end_step() removed (to within a rounding, for abandon_step()).
  void restore(const std::vector<std::string>& names, const Field& p = Field());
  /// Whether the pressure a step started from stays among the kept ones until the next step's first solve.
  bool keeps_step_start() const { return !kept_.empty(); }
  /// The pressure the current step started from (after its first before_solve; empty before, or without guesses),
  /// with the mean end_step() removed from it removed again in place: the guesses are spent (an abandoned step).
  Field abandon_step();

 private:
  std::vector<Field> kept_;  // the pressures of the solves before the last, oldest first
  bool ssp_stage_times_ = false;
  int known_ = 0;                  // how many of the newest in kept_ hold a solve's pressure
  bool solved_ = false;            // the pressure field holds a solve's result
  bool first_guess_made_ = false;  // end_step() made the next step's first guess
  Field step_start_;               // the kept buffer that holds the pressure the current step started from
  Real removed_mean_ = 0;          // the mean end_step() removed from the solve's result it kept
  int ghost_ = 0;                  // the ghost width: (ghost_, ghost_, ghost_) is an owned point
  Real step_start_mean_ = 0;       // the same for step_start_: the mean the step's starting pressure is without
};

}  // namespace eddy::time
