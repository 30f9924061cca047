#pragma once
// One level of the stretched-grid multigrid (solver/line_multigrid.hpp) and the kernels on it: the stretched
// Laplacian's residual, zebra line Gauss-Seidel, the transfers between levels, and the vector work of the flexible CG
// the cycles precondition. Inner products are weighted by the cells' volumes, in which the operator is symmetric.
#include "grid/axis_metric.hpp"
#include "solver/poisson_level.hpp"

#include <array>
#include <memory>

namespace eddy::solver {

/// A level's block, spacings and fields, and its coarsening to the next level.
struct LineLevel {
  PoissonLevel level;
  grid::GridMetric metric;
  Field x, b, r, cp, dp, dz;  ///< dz: the second right-hand side of a periodic line (Sherman-Morrison)
  std::unique_ptr<GhostFiller> ghosts;
  Int3 factor{1, 1, 1};  ///< to the next coarser level
};

/// r = b - L x over the owned cells (the ghosts of x valid).
void stretched_residual(const LineLevel& level);

/// One colour of zebra line Gauss-Seidel along `line`, over-relaxed by omega: every line whose position along the
/// other axes has the parity `colour` is solved exactly (Thomas; a periodic line with a Sherman-Morrison update), its
/// neighbours on the other lines held (their ghosts valid).
void zebra_line_sweep(const LineLevel& level, int line, int colour, Real omega);

/// The coarse level's b: the fine residual averaged over each coarse cell's children by volume; the coarse x zeroed.
void restrict_by_volume(const LineLevel& fine, const LineLevel& coarse);

/// x_fine += the coarse correction, interpolated linearly between coarse centres along each coarsened axis (the
/// coarse ghosts valid).
void prolong_linear_add(const LineLevel& coarse, const LineLevel& fine);

/// {|b - L x|^2, |b|^2, sum of x} of the level's owned cells into `sums` (device), and r = b - L x.
void stretched_residual_sums(const LineLevel& level, Field r, Buffer sums);

/// q = L p over the owned cells (the ghosts of p valid); returns this rank's volume-weighted <p, q>.
Real apply_stretched_operator(const LineLevel& level, Field p, Field q);

/// This rank's volume-weighted {<z, r>, <z, r_previous>}.
std::array<Real, 2> volume_dots(const LineLevel& level, Field z, Field r, Field r_previous);

/// This rank's {sum of volume x f, sum of volume} over the owned cells.
std::array<Real, 2> volume_sums(const LineLevel& level, Field f);

/// p = z + beta p and r_previous = r over every view point.
void flexible_cg_direction(Field p, Field z, Field r, Field r_previous, Real beta, const fields::LocalShape& s);

/// phi += alpha p and r -= alpha q over every view point.
void flexible_cg_step(Field phi, Field r, Field p, Field q, Real alpha, const fields::LocalShape& s);

/// The coarsening factor of the next level: 2 along the lines' axes while every block along them is even and at least
/// 4 cells; along the other axes as well, the finest of them first, so that their cells stay within twice each
/// other's size; {1, 1, 1} at the coarsest.
Int3 line_coarsening(const PoissonLevel& fine, const Int3& lines);

}  // namespace eddy::solver
