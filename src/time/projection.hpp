#pragma once
// The pressure projection of a stage: solve L(phi) = div(u*) / (alpha dt), then u = u* - alpha dt grad(phi).
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "fields/face_vector.hpp"
#include "grid/index_ranges.hpp"
#include "operators/flow_diagnostics.hpp"
#include "operators/gradient.hpp"
#include "parallel/reducer.hpp"
#include "solver/poisson_solver.hpp"
#include "time/tuning_plan.hpp"

#include <memory>
#include <string>

namespace eddy::time {

class Projection {
 public:
  /// Builds the Poisson solver of the deck for this block, its halos over the transport of the run's `plan`;
  /// `corrected` lists the outflow faces the gradient moves; the solver charges its communication to `timers` (if
  /// given).
  Projection(const config::Deck& deck, const grid::Decomposition& decomp, const operators::StaggeredGrid& grid,
             parallel::Context& context, const parallel::Reducer& reducer, const TuningPlan& plan,
             const operators::CorrectedBoundaries& corrected, PhaseTimers* timers = nullptr);

  /// Writes the Poisson right-hand side div(u*) / weight (velocity ghosts must be valid).
  void build_rhs(const fields::FlowState& state, Real weight);
  /// build_rhs on the cells of `box` only (the velocity faces they read must be valid).
  void build_rhs_in(const fields::FlowState& state, Real weight, const grid::IndexBox& box);
  /// Solves for phi (warm-started from and stored into state.p) as `request` asks: its mean pinned to zero or
  /// measured where the pressure is only fixed up to a constant (walls and periodic faces).
  solver::PoissonStats solve(const fields::FlowState& state, solver::SolveRequest request);
  /// Sets the ghosts of a pressure field as a solve leaves them.
  void fill_pressure_ghosts(Field p) { solver_->fill_ghosts(p); }
  /// Subtracts weight * grad(phi) from the velocity, writing the moved ends of owned rows to their `row_ends` images.
  void correct(const fields::FlowState& state, Real weight, const parallel::RowEndImages& row_ends = {});

  /// correct() written into `out` (every other point of the velocity copied), with the flow diagnostics of the result
  /// computed in the same pass (operators/correction_with_diagnostics.hpp: `out` must fit it).
  operators::LocalDiagnostics correct_into(const fields::FlowState& state, const fields::FaceVector& out, Real weight,
                                           const parallel::RowEndImages& row_ends = {});

  /// The solver's name for logs.
  std::string solver_name() const { return solver_->name(); }
  /// The solver's multigrid hierarchy in words (empty without one).
  std::string solver_hierarchy() const { return solver_->hierarchy(); }

 private:
  operators::StaggeredGrid grid_;
  operators::CorrectedBoundaries corrected_;
  bool rhs_mean_free_ = true;  // false where faces given by expressions close the domain: their fluxes may not cancel
  Field rhs_;
  std::unique_ptr<solver::PoissonSolver> solver_;
};

}  // namespace eddy::time
