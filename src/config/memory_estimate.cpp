#include "config/memory_estimate.hpp"

#include "core/row_padding.hpp"

namespace eddy::config {

// Fields counted, each of (n + 2 * ghost) points per axis (z too: 2D fields have ghosts in z), rows padded to whole
// cache lines (core/row_padding.hpp), 8 bytes per Real:
//   flow state               u, v, w, p, and the last good copy kept for a divergence      8 fields
//                            (its pressure kept by the stage pressure guesses where they   (7 with them)
//                            run)
//   time integration         the next stage's velocity and the kept tendency (with         6 fields
//                            buoyancy: this stage's and the previous stage's tendency);
//                            schemes whose stages read no earlier tendency (ssp_rk3,       (3 without)
//                            euler) keep none
//   stage pressure guesses   three-stage schemes without bodies: the pressures of the      3 fields
//                            three solves before the last
//   scalars                  value, two tendencies and the last good copy                   4 per scalar
//   bodies                   the pressure of the last stage (incremental projection)       1 field
//   statistics               the sums: u, v, (w), p, their products uu, vv, (ww), uv,      11 fields in 3D
//                            (uw, vw), pp, and per scalar S, u_S, v_S, (w_S), S_S           (7 in 2D; 5 or 4 a scalar)
//   Poisson solver           multigrid: rhs and its mean-free copy on the fine level, plus correction, rhs and residual
//                            on the coarse levels, which together hold 1/(2^d - 1) of the fine points (1/7 in 3D);
//                            Jacobi or Chebyshev smoothing add a residual (and Chebyshev its step) on every level,
//                            red-black Gauss-Seidel the second field of its fused sweep (used on GPUs; counted always);
//                            multigrid alone the convergence check's three partial sums per first-coarse-level cell
//                            (on GPUs per coarse column of up to eight cells: the estimate is an upper bound there)
//                            mg_cg: the multigrid above plus CG's direction, operator image and preconditioned
//                            residual (3); cg: rhs, residual, direction, operator image (4); jacobi: rhs and the
//                            previous iterate (2)
//   halo buffers             send and receive, both sides of every axis, for the 4 state fields
// Not counted: output staging, reduction scratch, Kokkos' own small allocations, and on several ranks the coarse levels
// gathered onto every rank (pressure.gather_coarse_levels: at most 2^20 cells in all, under 50 MB per rank).
// `eddy bench step` measures what a rank holds on the device, all of these included.
std::size_t estimate_bytes_per_rank(const Deck& deck, const Int3& local_cells, int ghost_layers) {
  const double bytes_per_real = sizeof(Real);
  double extent[3];
  for (int a = 0; a < 3; ++a) extent[a] = local_cells[a] + 2.0 * ghost_layers;
  extent[0] = padded_row_values(local_cells[0] + 2 * ghost_layers);
  const double points = extent[0] * extent[1] * extent[2];

  const int dims = deck.domain.dimensions;
  const double coarse_fraction = 1.0 / ((1 << dims) - 1);
  const double levels = 1.0 + coarse_fraction;
  const double smoother_fields = deck.pressure.smoother == SmootherType::chebyshev ? 2 * levels : levels;
  const double multigrid_fields = 2.0 + 3.0 * coarse_fraction + smoother_fields;
  double poisson_fields = 0;
  switch (deck.pressure.solver) {
    case PoissonSolverType::multigrid:
      poisson_fields = multigrid_fields + 3.0 / (1 << dims);
      break;
    case PoissonSolverType::mg_cg:
      poisson_fields = multigrid_fields + 3.0;
      break;
    case PoissonSolverType::cg:
      poisson_fields = 4.0;
      break;
    case PoissonSolverType::jacobi:
      poisson_fields = 2.0;
      break;
  }
  const bool guesses = deck.time.scheme != TimeScheme::euler && deck.bodies.empty();
  const bool kept_tendency = deck.time.scheme == TimeScheme::rk3;
  const double state_fields = 4.0, last_good_fields = guesses ? 3.0 : 4.0, time_fields = kept_tendency ? 6.0 : 3.0;
  const double guess_fields = guesses ? 3.0 : 0.0;
  const double physics_fields = 4.0 * static_cast<double>(deck.scalars.size()) + (deck.bodies.empty() ? 0.0 : 1.0);
  const double scalar_count = static_cast<double>(deck.scalars.size());
  const double statistics_fields =
      deck.statistics.enabled ? (dims == 3 ? 11.0 + 5.0 * scalar_count : 7.0 + 4.0 * scalar_count) : 0.0;

  double halo_points = 0;
  for (int a = 0; a < 3; ++a) {
    const double face_points = points / extent[a] * ghost_layers;
    halo_points += 2.0 /* send, receive */ * 2.0 /* sides */ * state_fields * face_points;
  }
  const double fields = state_fields + last_good_fields + time_fields + guess_fields + physics_fields +
                        statistics_fields + poisson_fields;
  const double total = (points * fields + halo_points) * bytes_per_real;
  return static_cast<std::size_t>(total);
}

}  // namespace eddy::config
