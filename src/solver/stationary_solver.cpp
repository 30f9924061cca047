#include "solver/stationary_solver.hpp"

#include "core/profile_region.hpp"
#include "fields/shifted_copy.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eddy::solver {

PoissonLevel top_level(const PoissonProblem& problem) {
  return {problem.decomp, problem.shape, problem.spacing, problem.faces, problem.timers, problem.exchange_clock};
}

namespace {

// True when an iteration took the residual from `before` to `after` without halving it while it was already within
// round-off of the right-hand side (1000 machine epsilons of |b|): the precision of Real cannot take it lower, and a
// tolerance below that (a single-precision build given a double-precision deck) ends the solve here.
bool stalled_at_round_off(Real before, Real after, Real rhs_norm) {
  const Real round_off = 1000 * std::numeric_limits<Real>::epsilon() * rhs_norm;
  return after <= round_off && after > Real(0.5) * before;
}

}  // namespace

StopCriteria stop_criteria(const config::PoissonConfig& config) {
  return {config.rtol, config.atol, config.max_iterations, std::max(1, config.check_every)};
}

StopCriteria requested(StopCriteria stop, const SolveRequest& request) {
  if (request.rtol > 0) stop.rtol = request.rtol;
  stop.rtol = std::max(stop.rtol, round_off_rtol);
  return stop;
}

StationarySolver::StationarySolver(const config::PoissonConfig& config, const PoissonProblem& problem,
                                   const parallel::Reducer& reducer)
    : stop_(stop_criteria(config)),
      level_(top_level(problem)),
      reducer_(&reducer),
      b_(fields::make_field("poisson::b", problem.shape)),
      sums_("poisson::sums", 3) {}

void StationarySolver::measure(Field phi, Field b) { residual_sums(phi, b, level_, sums_, *reducer_); }

Real StationarySolver::rhs_mean(Field rhs) { return global_sum(rhs, level_, *reducer_) / level_.global_cells(); }

PoissonStats StationarySolver::solve(Field phi, Field rhs, const SolveRequest& request) {
  ProfileRegion region("poisson::" + name());
  const auto& reducer = *reducer_;
  const bool singular = level_.singular();
  const Real shift = singular && !request.rhs_mean_free ? rhs_mean(rhs) : Real(0);
  // Without a shift the iterations read the right-hand side in place.
  const Field b = shift != 0 ? b_ : rhs;
  if (shift != 0) fields::shifted_copy("poisson::shifted_rhs", b_, rhs, shift);
  if (!request.ghosts_valid) ghosts().fill(phi);
  measure(phi, b);
  auto sums = read_sums<3>(sums_);
  PoissonStats stats;
  stats.initial_residual = stats.final_residual = std::sqrt(sums[0]);
  stats.rhs_norm = std::sqrt(sums[1]);
  stats.history.push_back(stats.initial_residual);
  const StopCriteria stop = requested(stop_, request);
  const Real tolerance = std::max(stop.rtol * stats.rhs_norm, stop.atol);
  stats.converged = stats.initial_residual <= tolerance;
  // Every measurement also sums phi: after the last iteration that sum pins the mean of the singular problem.
  bool phi_summed = true;
  for (int it = 1; !stats.converged && it <= stop.max_iterations; ++it) {
    iterate(phi, b);
    stats.iterations = it;
    phi_summed = false;
    if (it % stop.check_every == 0 || it == stop.max_iterations) {
      measure(phi, b);
      sums = read_sums<3>(sums_);
      const Real before = stats.final_residual;
      stats.final_residual = std::sqrt(sums[0]);
      stats.history.push_back(stats.final_residual);
      stats.converged =
          stats.final_residual <= tolerance || stalled_at_round_off(before, stats.final_residual, stats.rhs_norm);
      phi_summed = true;
    }
  }
  if (singular && (request.pin_mean || request.measure_mean)) {
    const Real phi_sum = phi_summed ? sums[2] : global_sum(phi, level_, reducer);
    stats.solution_mean = phi_sum / level_.global_cells();
    if (request.pin_mean) subtract_constant(phi, stats.solution_mean);
  }
  complete_ghosts(phi);
  return stats;
}

void StationarySolver::fill_ghosts(Field phi) {
  ghosts().fill(phi);
  complete_ghosts(phi);
}

}  // namespace eddy::solver
