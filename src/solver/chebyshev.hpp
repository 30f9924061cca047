#pragma once
// Chebyshev polynomial smoothing for multigrid: x += p(D^-1 L) D^-1 r with the polynomial of the chosen degree that
// is smallest on the eigenvalues of D^-1 L which the coarse grid cannot represent. It needs no colouring, so every
// sweep is one residual and one fused update over all cells, and its damping of that band is optimal among
// polynomial smoothers.
//
// The band: with the constant diagonal D of the 5-/7-point stencil, the eigenvalues of D^-1 L for a mode with angles
// theta_a are sum_a w_a (1 - cos theta_a) / sum_a w_a (weights w_a = 1 / h_a^2), so they lie in (0, 2]. A mode the
// coarse grid cannot represent has theta_a >= pi / 2 on at least one coarsened axis a, hence eigenvalue >= w_a / sum w.
//
// Weighted Jacobi, x += weight D^-1 r, is the polynomial of degree one; both update every cell from a stored residual.
#include "solver/poisson_level.hpp"

#include <vector>

namespace eddy::solver {

/// The eigenvalue band [low, high] of D^-1 L that a smoother must damp.
struct EigenBand {
  Real low = 0, high = 2;
};

/// The band of the high-frequency modes for stencil weights (wx, wy, wz; wz = 0 in 2D), coarsened per axis by
/// `factor` (an axis with factor 1 is not coarsened and does not bound the band).
EigenBand high_frequency_band(const Real3& weights, const Int3& factor);

/// One Chebyshev sweep: d = previous * d + residual * D^-1 r, then x += d.
struct ChebyshevSweep {
  Real previous = 0, residual = 0;
};

/// The sweeps of the degree-`degree` Chebyshev smoother for `band` (the first sweep has previous = 0).
std::vector<ChebyshevSweep> chebyshev_sweeps(const EigenBand& band, int degree);

/// d = previous * d + residual * r / diagonal, then x += d (one Chebyshev sweep from a stored residual r).
void chebyshev_correct(Field x, Field d, Field r, const PoissonLevel& level, Real previous, Real residual);

/// x += weight * r / diagonal (weighted Jacobi from a stored residual r).
void jacobi_correct(Field x, Field r, const PoissonLevel& level, Real weight);

}  // namespace eddy::solver
