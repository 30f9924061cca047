// The Kovasznay flow at Re = 40 (inputs/kovasznay2d_re40.yaml): velocity from expressions on every face (leaving
// through part of the inlet face), started from the exact solution. Against the exact solution the largest errors of
// u and v, and those of p (its mean removed) in the mean square and a quarter of the width away from the boundary,
// fall at second order over three grids. The largest pressure error, in the cells along the boundary, falls at first
// order: the projection's pressure takes a Neumann condition from the velocity, not the flow's own normal gradient.
// The same on a grid stretched along y.
#include "config/load.hpp"
#include "flow_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr double lambda = -0.9637405441957689;

struct Errors {
  double u = 0, v = 0, p = 0, p_l2 = 0, p_inner = 0;  // largest (u, v, p), mean square (p), away from the faces (p)
};

// The errors on 3n x 4n cells, uniform or (with `stretched`) clustered towards y = -0.5 and 1.5.
Errors kovasznay_errors(int n, bool stretched = false) {
  const std::string deck_path = std::string(std::getenv("EDDY_SOURCE_DIR")) + "/inputs/kovasznay2d_re40.yaml";
  std::vector<std::string> overrides{"domain.cells=[" + std::to_string(3 * n) + "," + std::to_string(4 * n) + "]",
                                     "time.end_time=0.5"};
  if (stretched)
    overrides.insert(overrides.end(), {"domain.stretching.y.cluster=both", "domain.stretching.y.factor=1.5"});
  const auto deck = eddy::config::load(deck_path, overrides);
  eddy::parallel::Context context;
  eddy::time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  const auto u = eddy::testing::gather(sim, 0), v = eddy::testing::gather(sim, 1), p = eddy::testing::gather(sim, 3);
  const auto& g = sim.decomposition().global;
  const double pi = 3.14159265358979323846;
  const auto exact_u = [&](double x, double y) { return 1 - std::exp(lambda * x) * std::cos(2 * pi * y); };
  const auto exact_v = [&](double x, double y) {
    return lambda / (2 * pi) * std::exp(lambda * x) * std::sin(2 * pi * y);
  };
  const auto exact_p = [&](double x) { return 0.5 * (1 - std::exp(2 * lambda * x)); };
  Errors e;
  double mean = 0, area = 0;
  for (int j = 0; j < 4 * n; ++j) {
    for (int i = 0; i < 3 * n; ++i) {
      const double a = g.width(0, i) * g.width(1, j);
      mean += a * (p(i, j, 0) - exact_p(g.centre(0, i)));
      area += a;
    }
  }
  mean /= area;
  for (int j = 0; j < 4 * n; ++j) {
    for (int i = 0; i < 3 * n; ++i) {
      const double xc = g.centre(0, i), yc = g.centre(1, j);
      if (i + 1 < 3 * n) e.u = std::max(e.u, std::abs(u(i, j, 0) - exact_u(g.face(0, i + 1), yc)));
      if (j + 1 < 4 * n) e.v = std::max(e.v, std::abs(v(i, j, 0) - exact_v(xc, g.face(1, j + 1))));
      const double dp = std::abs(p(i, j, 0) - exact_p(xc) - mean);
      e.p = std::max(e.p, dp);
      e.p_l2 += dp * dp * g.width(0, i) * g.width(1, j);
      if (xc > -0.25 && xc < 0.75 && yc > -0.25 && yc < 1.25) e.p_inner = std::max(e.p_inner, dp);
    }
  }
  e.p_l2 = std::sqrt(e.p_l2 / area);
  return e;
}

}  // namespace

TEST(Kovasznay, VelocityAndPressureConvergeAtSecondOrder) {
  const Errors coarse = kovasznay_errors(8), medium = kovasznay_errors(16), fine = kovasznay_errors(32);
  for (const auto& [name, a, b, c] : {std::tuple{"u", coarse.u, medium.u, fine.u},
                                      {"v", coarse.v, medium.v, fine.v},
                                      {"p mean square", coarse.p_l2, medium.p_l2, fine.p_l2},
                                      {"p inside", coarse.p_inner, medium.p_inner, fine.p_inner}}) {
    SCOPED_TRACE(name);
    EXPECT_GE(eddy::testing::observed_order(a, b), 1.75) << a << " " << b << " " << c;
    EXPECT_GE(eddy::testing::observed_order(b, c), 1.8) << a << " " << b << " " << c;
  }
  EXPECT_GE(eddy::testing::observed_order(medium.p, fine.p), 0.8);  // the boundary cells' first order
  EXPECT_LT(fine.u, 2e-3);
}

// The same flow on cells clustered towards the low and high y faces (the smallest 5.3 times narrower than the widest),
// its boundary data evaluated at the faces' true positions.
TEST(Kovasznay, ConvergesAtSecondOrderOnAStretchedGrid) {
  const Errors coarse = kovasznay_errors(8, true), fine = kovasznay_errors(16, true);
  for (const auto& [name, a, b] :
       {std::tuple{"u", coarse.u, fine.u}, {"v", coarse.v, fine.v}, {"p mean square", coarse.p_l2, fine.p_l2}}) {
    SCOPED_TRACE(name);
    EXPECT_GE(eddy::testing::observed_order(a, b), 1.75) << a << " " << b;
  }
}
