#include "solver/conjugate_gradient.hpp"

#include "core/profile_region.hpp"
#include "solver/cg_updates.hpp"
#include "solver/laplacian.hpp"
#include "solver/level_sums.hpp"

#include <cmath>
#include <utility>

namespace eddy::solver {

ConjugateGradient::ConjugateGradient(const PoissonLevel& level, parallel::Context& context,
                                     const parallel::Reducer& reducer, parallel::Transport halo_transport,
                                     bool preconditioned)
    : level_(level),
      reducer_(&reducer),
      ghosts_(context, level, halo_transport),
      r_(fields::make_field("cg::r", level.shape)),
      p_(fields::make_field("cg::p", level.shape)),
      q_(fields::make_field("cg::q", level.shape)),
      pq_("cg::pq", 1),
      sums_{Buffer("cg::sums_a", 3), Buffer("cg::sums_b", 3)} {
  if (preconditioned) z_ = fields::make_field("cg::z", level.shape);
}

PoissonStats ConjugateGradient::solve(Field x, Field b, const StopCriteria& stop, const SolveRequest& request,
                                      Preconditioner* preconditioner) {
  ProfileRegion region("poisson::cg");
  const bool flexible = preconditioner != nullptr;
  const auto& reducer = *reducer_;
  const bool singular = level_.singular();
  const Real shift =
      singular && !request.rhs_mean_free ? global_sum(b, level_, reducer) / level_.global_cells() : Real(0);

  PoissonStats stats;
  if (!request.ghosts_valid) ghosts_.fill(x);
  residual_with_norms(r_, x, b, shift, level_, sums_[0], reducer);
  const auto initial = read_sums<2>(sums_[0]);
  stats.initial_residual = std::sqrt(initial[0]);
  stats.rhs_norm = std::sqrt(initial[1]);
  stats.final_residual = stats.initial_residual;
  stats.history.push_back(stats.initial_residual);
  const Real tolerance = std::max(stop.rtol * stats.rhs_norm, stop.atol);
  stats.converged = stats.initial_residual <= tolerance;

  Field z = flexible ? z_ : r_;
  Buffer current = sums_[0], next = sums_[1];
  if (!stats.converged) {
    if (flexible) {
      preconditioner->apply(z, r_);
      preconditioned_dots(r_, z, q_, current, level_, reducer);  // q . z is unused on the first step
    }
    // Without a preconditioner current[0] already holds r . r from the residual.
    Kokkos::deep_copy(p_, z);
  }
  const int rr_slot = flexible ? 1 : 0;
  for (int it = 1; !stats.converged && it <= stop.max_iterations; ++it) {
    ghosts_.fill(p_);
    apply_and_dot(q_, p_, level_, pq_, reducer);
    cg_step(x, r_, p_, q_, current, pq_, next, !flexible, level_, reducer);
    if (flexible) {
      preconditioner->apply(z, r_);
      preconditioned_dots(r_, z, q_, next, level_, reducer);
    }
    cg_direction(p_, z, current, next, pq_, flexible, level_);
    std::swap(current, next);
    stats.iterations = it;
    if (it % stop.check_every == 0 || it == stop.max_iterations) {
      const Real norm = std::sqrt(std::max(Real(0), read_sums<3>(current)[rr_slot]));
      stats.history.push_back(norm);
      stats.converged = norm <= tolerance;
    }
  }
  ghosts_.fill(x);
  if (singular && (request.pin_mean || request.measure_mean)) {
    stats.solution_mean = global_sum(x, level_, reducer) / level_.global_cells();
    if (request.pin_mean) subtract_constant(x, stats.solution_mean);
  }
  residual_with_norms(r_, x, b, shift, level_, sums_[0], reducer);
  stats.final_residual = std::sqrt(read_sums<1>(sums_[0])[0]);
  return stats;
}

}  // namespace eddy::solver
