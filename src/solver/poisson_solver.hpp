#pragma once
// The pressure Poisson problem and the interface every solver (Jacobi, CG, multigrid, multigrid-preconditioned CG)
// implements. The discrete operator is the cell-centred 5-point (2D) / 7-point (3D) Laplacian
//   L(phi)_c = sum over axes (phi_{c+1} - 2 phi_c + phi_{c-1}) / h_axis^2,
// with ghost cells set by the boundary condition of each face:
//   neumann   (walls, inflow): ghost = interior        (zero normal gradient at the face)
//   dirichlet (outflow):       ghost = -interior       (phi = 0 on the face)
//   periodic:                  ghost = the wrapped cell (filled by the halo exchange)
// In 2D (one cell in z, periodic in z) the z term vanishes, so the same operator serves 2D and 3D.
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"
#include "parallel/exchange_clock.hpp"
#include "parallel/reducer.hpp"
#include "solver/pressure_ghosts.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace eddy::solver {

/// Everything a solver needs to know about the operator: the rank's block, the spacing and the face conditions.
struct PoissonProblem {
  grid::Decomposition decomp;
  fields::LocalShape shape;
  Real3 spacing{1, 1, 1};
  std::array<PressureBoundary, 6> faces{};                        ///< x_low, x_high, y_low, y_high, z_low, z_high
  parallel::Transport halo_transport = parallel::Transport::mpi;  ///< the run's (time/tuning_plan.hpp)
  /// The run's phase timers: the solver charges its halo exchanges and reductions to poisson_halo and
  /// poisson_reduction (nullptr: not timed).
  PhaseTimers* timers = nullptr;
  /// Times the solver's exchanges that only enqueue stream work on the device (make_poisson_solver sets it).
  parallel::ExchangeClock* exchange_clock = nullptr;

  /// True when no face is Dirichlet: the operator is singular and the solution is fixed to zero mean.
  bool singular() const;
};

/// Outcome of one solve, kept for the run log.
struct PoissonStats {
  int iterations = 0;
  Real rhs_norm = 0;          ///< |b| (L2 over all cells)
  Real initial_residual = 0;  ///< |b - L x0|
  Real final_residual = 0;    ///< |b - L x| at exit
  bool converged = false;
  std::vector<Real> history;  ///< residual norm at each check
  Real solution_mean = 0;     ///< the mean of phi the iterations left (where the request pins or measures it)
};

/// What a caller knows about one solve and wants from it; the three fields on the mean apply to singular problems (no
/// Dirichlet face) only.
struct SolveRequest {
  /// The right-hand side sums to zero up to round-off (the divergence of a velocity with no net flux through the
  /// boundary), so its mean is not removed: one pass over the cells less, and the iterations read rhs in place.
  bool rhs_mean_free = false;
  /// The solution's mean is set to zero on return; without it the mean is whatever the iterations leave (the
  /// gradient, all a projection uses, is the same): one pass less.
  bool pin_mean = true;
  /// Without the pin, the solution's mean is measured into PoissonStats::solution_mean for the caller to remove
  /// where it copies the solution anyway (the pressure guesses of the next step).
  bool measure_mean = false;
  /// phi's ghosts already hold what a solve leaves there (a solve's result, or a linear combination of such over
  /// every view point): the solve reads them as they are instead of filling them first.
  bool ghosts_valid = false;
  /// Stop at this relative residual instead of the solver's own (0: the solver's).
  Real rtol = 0;
};

class PoissonSolver {
 public:
  virtual ~PoissonSolver() = default;
  /// Solves L(phi) = rhs on the owned cells, starting from phi (warm start); on return the ghosts of phi are valid.
  virtual PoissonStats solve(Field phi, Field rhs, const SolveRequest& request) = 0;
  /// Solves with the mean of rhs removed and the mean of phi set to zero (singular problems).
  PoissonStats solve(Field phi, Field rhs) { return solve(phi, rhs, SolveRequest{}); }
  /// Sets the ghosts of phi as a solve leaves them (boundary conditions and neighbouring ranks).
  virtual void fill_ghosts(Field phi) = 0;
  /// Short name for logs ("multigrid", "cg", ...).
  virtual std::string name() const = 0;
  /// The multigrid hierarchy for logs (Multigrid::describe()); empty for solvers without one.
  virtual std::string hierarchy() const { return {}; }
};

/// The pressure boundary conditions implied by the velocity boundary conditions of the deck.
std::array<PressureBoundary, 6> pressure_boundaries(const config::BoundaryConfig& boundary, int dimensions);

/// Builds the solver the deck asks for. With phase timers, its exchanges that only enqueue stream work (peer links,
/// NCCL; inside CUDA graphs too) are timed on the device and, where phases are timed exactly, charged to poisson_halo
/// after each solve.
std::unique_ptr<PoissonSolver> make_poisson_solver(const config::PoissonConfig& config, const PoissonProblem& problem,
                                                   parallel::Context& context, const parallel::Reducer& reducer);

}  // namespace eddy::solver
