#pragma once
// What one time step did, shared by the time loop (which fills it), the console log and the telemetry file.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace eddy {

/// Phases of a step that are timed separately (seconds per step in StepRecord::phase_seconds). `poisson` is the
/// pressure solver's own work; its halo exchanges are `poisson_halo`, its global reductions and the gather of the
/// coarsest multigrid level `poisson_reduction`. `halo` and `reduction` are those of the velocity and diagnostics.
enum class Phase {
  advance,
  boundary,
  halo,
  poisson,
  poisson_halo,
  poisson_reduction,
  projection,
  reduction,
  output,
  count
};

/// Printable name of a phase, as used in logs, telemetry columns and the run summary.
constexpr std::string_view phase_name(Phase phase) {
  constexpr std::array<std::string_view, static_cast<int>(Phase::count)> names{
      "advance",           "boundary",   "halo",      "poisson", "poisson_halo",
      "poisson_reduction", "projection", "reduction", "output"};
  return names[static_cast<int>(phase)];
}

/// A named diagnostic of the coupled physics (a Nusselt number, a drag coefficient, ...).
struct NamedValue {
  std::string name;
  double value = 0;
};

/// Diagnostics of one completed step.
struct StepRecord {
  long long step = 0;
  double time = 0;  ///< simulated time at the end of the step
  double dt = 0;
  double cfl = 0;                     ///< advective Courant number dt * max(|u|/dx + |v|/dy + |w|/dz)
  double kinetic_energy = 0;          ///< 0.5 * sum(|u|^2) dV over the domain
  double max_divergence = 0;          ///< max |div u| after the projection
  int poisson_iterations = 0;         ///< summed over the stages of the step
  double poisson_residual = 0;        ///< final relative residual of the last solve
  double poisson_guess_residual = 0;  ///< largest relative residual of the step's solves before their first iteration
  double wall_seconds = 0;            ///< wall time of the step
  std::array<double, static_cast<int>(Phase::count)> phase_seconds{};
  std::vector<NamedValue> extra;  ///< coupled-physics diagnostics, the same names every step of a run
};

}  // namespace eddy
