#include "time/projection.hpp"

#include "operators/correction_with_diagnostics.hpp"
#include "operators/divergence.hpp"

namespace eddy::time {

Projection::Projection(const config::Deck& deck, const grid::Decomposition& decomp,
                       const operators::StaggeredGrid& grid, parallel::Context& context,
                       const parallel::Reducer& reducer, const TuningPlan& plan,
                       const operators::CorrectedBoundaries& corrected, PhaseTimers* timers)
    : grid_(grid), corrected_(corrected), rhs_(fields::make_field("poisson_rhs", grid.shape)) {
  solver::PoissonProblem problem;
  problem.decomp = decomp;
  problem.shape = grid.shape;
  problem.spacing = grid.spacing;
  problem.faces = solver::pressure_boundaries(deck.boundary, deck.domain.dimensions);
  problem.halo_transport = plan.halo;
  problem.timers = timers;
  bool expressions = false, outflow = false;
  for (const auto& face : deck.boundary.faces) {
    expressions = expressions || !face.velocity_expressions.empty();
    outflow = outflow || face.type == config::BoundaryType::outflow;
  }
  // In single precision that round-off mean lies above what the iterations resolve, and a singular solve (periodic or
  // walled box) would chase it: the solvers remove it there.
  rhs_mean_free_ = (!expressions || outflow) && sizeof(Real) == sizeof(double);
  solver_ = solver::make_poisson_solver(deck.pressure, problem, context, reducer);
}

void Projection::build_rhs(const fields::FlowState& state, Real weight) {
  operators::compute_divergence(state, rhs_, grid_, 1 / weight);
}

void Projection::build_rhs_in(const fields::FlowState& state, Real weight, const grid::IndexBox& box) {
  operators::compute_divergence_in(state, rhs_, grid_, 1 / weight, box);
}

solver::PoissonStats Projection::solve(const fields::FlowState& state, solver::SolveRequest request) {
  // Without faces given by expressions, no net flux crosses the boundary of a domain without an outflow face (the deck
  // check refuses an inflow without one), so the divergence sums to zero up to round-off.
  request.rhs_mean_free = rhs_mean_free_;
  return solver_->solve(state.p, rhs_, request);
}

void Projection::correct(const fields::FlowState& state, Real weight, const parallel::RowEndImages& row_ends) {
  operators::subtract_pressure_gradient(state, state.p, weight, grid_, corrected_, row_ends);
}

operators::LocalDiagnostics Projection::correct_into(const fields::FlowState& state, const fields::FaceVector& out,
                                                     Real weight, const parallel::RowEndImages& row_ends) {
  return operators::correct_and_diagnose(state, out, weight, grid_, corrected_, row_ends);
}

}  // namespace eddy::time
