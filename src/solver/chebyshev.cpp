#include "solver/chebyshev.hpp"

#include "grid/cell_loops.hpp"

#include <algorithm>

namespace eddy::solver {

EigenBand high_frequency_band(const Real3& weights, const Int3& factor) {
  const Real total = weights[0] + weights[1] + weights[2];
  Real low = 1;
  for (int a = 0; a < 3; ++a) {
    if (factor[a] == 2 && weights[a] > 0) low = std::min(low, weights[a] / total);
  }
  return {low, 2};
}

std::vector<ChebyshevSweep> chebyshev_sweeps(const EigenBand& band, int degree) {
  // The three-term recurrence of the shifted and scaled Chebyshev polynomials (Saad, Iterative Methods, sec. 12.3).
  const Real centre = (band.high + band.low) / 2, half_width = (band.high - band.low) / 2;
  const Real sigma = centre / half_width;
  std::vector<ChebyshevSweep> sweeps;
  if (degree < 1) return sweeps;
  sweeps.push_back({0, 1 / centre});
  Real rho = 1 / sigma;
  for (int k = 1; k < degree; ++k) {
    const Real next = 1 / (2 * sigma - rho);
    sweeps.push_back({next * rho, 2 * next / half_width});
    rho = next;
  }
  return sweeps;
}

void chebyshev_correct(Field x, Field d, Field r, const PoissonLevel& level, Real previous, Real residual) {
  const Real scale = residual / level.weights().diagonal();
  grid::for_each_owned_cell(
      "poisson::chebyshev_correct", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        const Real step = previous * d(i, j, k) + scale * r(i, j, k);
        d(i, j, k) = step;
        x(i, j, k) += step;
      });
}

void jacobi_correct(Field x, Field r, const PoissonLevel& level, Real weight) {
  const Real scale = weight / level.weights().diagonal();
  grid::for_each_owned_cell(
      "poisson::jacobi_correct", level.shape, KOKKOS_LAMBDA(int i, int j, int k) { x(i, j, k) += scale * r(i, j, k); });
}

}  // namespace eddy::solver
