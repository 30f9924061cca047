#pragma once
// The initial guess of each Runge-Kutta stage's pressure solve. A stage k >= 1 projects
//   u* = u_k + dt (gamma_k R_k + zeta_k R_{k-1})  with the weight alpha_k dt,
// so its pressure is (gamma_k q_k + zeta_k q_{k-1}) / alpha_k with q = L^-1 div R: a combination that amplifies the
// change of q between stages (by 3.1 in the second stage of Wray's RK3). Warm-started from the previous stage's
// pressure, the second stage's solve starts ten times further from its solution than the first stage's. The change
// of pressure between two stages varies slowly from one step to the next, so stage k starts instead from
//   p_{k-1} + (p_k - p_{k-1}) of the previous step,
// which costs two streaming kernels per stage (two reads and one write each) and saves a multigrid cycle where the
// plain warm start needs two. The guess is written into a second pressure buffer, which the pressure field then
// names, so that the previous stage's pressure stays where it was without a copy. The first step of a run starts each
// stage from the previous stage's pressure; checkpoints hold the recorded changes.
#include "core/types.hpp"
#include "fields/field.hpp"

#include <string>
#include <vector>

namespace eddy::time {

class PressureGuess {
 public:
  /// Guesses for a scheme of `stages` stages on fields of `shape`.
  PressureGuess(const fields::LocalShape& shape, int stages);
  /// Before stage `stage`'s solve: p + the previous step's change from the stage before (when known), into the second
  /// buffer, which `p` names on return; keeps the pressure p had.
  void before_solve(Field& p, int stage);
  /// After stage `stage`'s solve: records p - (the pressure kept by before_solve) for the next step.
  void after_solve(Field p, int stage);
  /// The recorded changes, named for a checkpoint (a restart continues with them bit for bit).
  std::vector<fields::NamedField> recorded_fields() const;
  /// Every change field under the names recorded_fields() gives them, to read a checkpoint into.
  std::vector<fields::NamedField> all_fields() const;
  /// Marks the changes of `names` recorded (read from a checkpoint).
  void restore(const std::vector<std::string>& names);

 private:
  Field kept_;                  // the previous stage's pressure during a stage's solve; the guess buffer otherwise
  std::vector<Field> change_;   // per stage k >= 1: p_k - p_{k-1} of the last step
  std::vector<bool> recorded_;  // change_[k] holds a value
};

}  // namespace eddy::time
