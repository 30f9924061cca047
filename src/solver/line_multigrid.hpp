#pragma once
// The pressure solver of a stretched grid, where cells are far longer along some axes than along others (at a
// channel's walls, 20 times and more): a point smoother no longer damps the errors that are smooth along the long
// axes, so each stretched axis is relaxed a whole line at a time (zebra line Gauss-Seidel, over-relaxed by
// pressure.relaxation, the line systems solved by the Thomas algorithm), with volume-weighted restriction, linear
// prolongation weighted by the distances between centres, and the operator rediscretised on every level. The cycles
// (V, or W with pressure.cycle w) precondition a flexible CG in the volume-weighted inner product, in which the
// operator is symmetric: the cycles alone reduce the residual 3 to 10 times an iteration, with CG more than 10 times
// (tests/poisson/test_line_multigrid.cpp). Lines never cross ranks: a stretched axis is not split.
#include "solver/line_level.hpp"
#include "solver/poisson_level.hpp"
#include "solver/poisson_solver.hpp"
#include "solver/stationary_solver.hpp"

#include <memory>
#include <string>
#include <vector>

namespace eddy::solver {

/// A PoissonSolver of multigrid V-cycles with line relaxation along the stretched axes.
class LineMultigrid : public StationarySolver {
 public:
  LineMultigrid(const config::PoissonConfig& config, const PoissonProblem& problem, parallel::Context& context,
                const parallel::Reducer& reducer);
  ~LineMultigrid() override;
  std::string name() const override { return "line_multigrid"; }
  std::string hierarchy() const override;
  PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) override;

 protected:
  void iterate(Field phi, Field b) override;
  void measure(Field phi, Field b) override;
  /// The volume-weighted mean: what the fluxes of a stretched grid's operator sum to zero against.
  Real rhs_mean(Field rhs) override;
  GhostFiller& ghosts() override;

 private:
  void cycle(int l);
  void smooth(int l, int sweeps);

  int pre_smooth_, post_smooth_;
  Real omega_;  // the lines' over-relaxation (pressure.relaxation)
  int gamma_;   // visits of each coarser level per cycle: 1 (V-cycle) or 2 (W-cycle, pressure.cycle w or f)
  // Flexible CG around the cycles: residual, its previous value, preconditioned residual, direction, L direction.
  Field r_, r_previous_, z_, p_, q_;
  Real zr_previous_ = 0;
  bool first_iteration_ = true;
  std::vector<std::unique_ptr<LineLevel>> levels_;
  Int3 lines_{0, 0, 0};  // 1 along each axis relaxed by lines
};

}  // namespace eddy::solver
