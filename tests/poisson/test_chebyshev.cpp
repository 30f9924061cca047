// The Chebyshev smoother's sweeps realise the minimax polynomial on the high-frequency band: applied to one eigenmode
// of D^-1 L with eigenvalue lambda, m sweeps multiply its error by p_m(lambda), whose largest magnitude on the band is
// 1 / T_m(sigma) and is reached at both ends of the band.
#include "solver/chebyshev.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using eddy::Real;
using eddy::solver::chebyshev_sweeps;
using eddy::solver::EigenBand;
using eddy::solver::high_frequency_band;

namespace {

// The error factor of the sweeps on an eigenmode with eigenvalue lambda (x* - x scales by it).
Real error_factor(const EigenBand& band, int degree, Real lambda) {
  Real error = 1, step = 0;
  for (const auto& sweep : chebyshev_sweeps(band, degree)) {
    step = sweep.previous * step + sweep.residual * lambda * error;
    error -= step;
  }
  return error;
}

Real chebyshev_bound(const EigenBand& band, int degree) {
  const Real sigma = (band.high + band.low) / (band.high - band.low);
  return 1 / std::cosh(degree * std::acosh(sigma));
}

}  // namespace

TEST(Chebyshev, SweepsAreTheMinimaxPolynomialOnTheBand) {
  for (const EigenBand band : {EigenBand{1.0 / 3, 2}, EigenBand{0.5, 2}, EigenBand{0.05, 2}}) {
    for (int degree = 1; degree <= 4; ++degree) {
      const Real bound = chebyshev_bound(band, degree);
      Real largest = 0;
      for (int n = 0; n <= 1000; ++n) {
        const Real lambda = band.low + (band.high - band.low) * n / 1000;
        largest = std::max(largest, std::abs(error_factor(band, degree, lambda)));
      }
      EXPECT_NEAR(largest, bound, 1e-12) << degree;
      EXPECT_NEAR(std::abs(error_factor(band, degree, band.low)), bound, 1e-12) << degree;
      EXPECT_NEAR(std::abs(error_factor(band, degree, band.high)), bound, 1e-12) << degree;
      // Smooth modes below the band are left for the coarse grid and are damped less.
      EXPECT_GT(std::abs(error_factor(band, degree, band.low / 4)), bound) << degree;
    }
  }
}

TEST(Chebyshev, HighFrequencyBandFollowsTheCoarsenedAxes) {
  const auto cube = high_frequency_band({1, 1, 1}, {2, 2, 2});
  EXPECT_DOUBLE_EQ(cube.low, 1.0 / 3);
  EXPECT_DOUBLE_EQ(cube.high, 2);
  EXPECT_DOUBLE_EQ(high_frequency_band({1, 1, 0}, {2, 2, 1}).low, 0.5);
  // dy = 2 dx: the y weight is a quarter of the x weight, and y modes bound the band.
  EXPECT_DOUBLE_EQ(high_frequency_band({4, 1, 0}, {2, 2, 1}).low, 0.2);
  // Only x is coarsened: the coarse grid keeps every y and z mode, so x frequencies alone bound the band.
  EXPECT_DOUBLE_EQ(high_frequency_band({1, 1, 1}, {2, 1, 1}).low, 1.0 / 3);
}
