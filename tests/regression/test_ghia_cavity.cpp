// Lid-driven cavity at Re = 100 and Re = 1000 on 128^2 cells, run to a steady state, against the centreline
// profiles of Ghia, Ghia and Shin (1982) in data/ghia1982_re100_re1000.csv.
#include "../flow/flow_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct ReferencePoint {
  char quantity;  // 'u' along x = 0.5 (coordinate y), 'v' along y = 0.5 (coordinate x)
  int reynolds;
  double coordinate, value;
  std::string status;
};

std::vector<ReferencePoint> read_reference() {
  const char* source = std::getenv("EDDY_SOURCE_DIR");
  const std::string path = std::string(source ? source : ".") + "/tests/regression/data/ghia1982_re100_re1000.csv";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<ReferencePoint> points;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // quantity,Re,coord_name,coord,grid_index_129,coord_exact,value,status
      header = false;
      continue;
    }
    std::stringstream row(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() < 8) continue;
    points.push_back({cells[0][0], std::stoi(cells[1]), std::stod(cells[5]), std::stod(cells[6]), cells[7]});
  }
  return points;
}

// Linear interpolation of samples at `positions` (increasing) to `x`.
double interpolate(const std::vector<double>& positions, const std::vector<double>& values, double x) {
  std::size_t n = 1;
  while (n + 1 < positions.size() && positions[n] < x) ++n;
  const double t = (x - positions[n - 1]) / (positions[n] - positions[n - 1]);
  return (1 - t) * values[n - 1] + t * values[n];
}

eddy::config::Deck cavity_deck(int reynolds, int n) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(2, n);
  deck.domain.length = {1.0, 1.0, 1.0};
  for (auto& face : deck.boundary.faces) face.type = eddy::config::BoundaryType::no_slip;
  deck.boundary.faces[4].type = deck.boundary.faces[5].type = eddy::config::BoundaryType::periodic;
  deck.boundary.faces[3].type = eddy::config::BoundaryType::moving_wall;
  deck.boundary.faces[3].velocity = {1, 0, 0};
  deck.physics.viscosity = 1.0 / reynolds;
  deck.time.cfl = 0.8;
  deck.time.viscous_safety = 1.0;  // RK3 is stable up to about 1.25 times the forward-Euler diffusion limit
  deck.time.end_time = 400;
  deck.pressure.solver = eddy::config::PoissonSolverType::multigrid;  // 3 warm-started V-cycles per solve at 128^2
  deck.pressure.rtol = 1e-6;
  deck.pressure.atol = 1e-10;
  deck.pressure.max_iterations = 1000;
  return deck;
}

// Runs until the largest velocity change per unit time falls below `tolerance` (or `max_time` is reached).
void run_to_steady_state(eddy::time::Simulation& sim, double tolerance, double max_time) {
  auto u = eddy::testing::gather(sim, 0), v = eddy::testing::gather(sim, 1);
  double rate = 1;
  while (sim.time() < max_time && rate > tolerance) {
    const double start = sim.time();
    sim.advance(500);
    const auto u_new = eddy::testing::gather(sim, 0), v_new = eddy::testing::gather(sim, 1);
    rate = std::max(eddy::testing::max_difference(u, u_new), eddy::testing::max_difference(v, v_new)) /
           (sim.time() - start);
    u = u_new;
    v = v_new;
  }
  if (sim.decomposition().rank == 0) {
    std::printf("steady to %.2e per unit time at t = %.1f after %lld steps\n", rate, sim.time(), sim.step());
  }
  EXPECT_LE(rate, tolerance) << "not steady by t = " << sim.time();
}

void compare_with_ghia(int reynolds, double tolerance, double conflict_tolerance, double max_time) {
  const int n = 128;
  eddy::parallel::Context context;
  eddy::time::Simulation sim(cavity_deck(reynolds, n), context, {"", true});
  run_to_steady_state(sim, 1e-4, max_time);
  const auto u = eddy::testing::gather(sim, 0), v = eddy::testing::gather(sim, 1);
  const double h = 1.0 / n;
  // u on the x-faces at x = 0.5 (face index n/2 - 1), at the cell centres in y, plus the walls.
  std::vector<double> ys{0.0}, us{0.0}, xs{0.0}, vs{0.0};
  for (int j = 0; j < n; ++j) {
    ys.push_back((j + 0.5) * h);
    us.push_back(u(n / 2 - 1, j, 0));
    xs.push_back((j + 0.5) * h);
    vs.push_back(v(j, n / 2 - 1, 0));
  }
  ys.push_back(1.0);
  us.push_back(1.0);
  xs.push_back(1.0);
  vs.push_back(0.0);
  int compared = 0;
  for (const auto& point : read_reference()) {
    if (point.reynolds != reynolds || point.status == "BOUNDARY") continue;
    const double computed =
        point.quantity == 'u' ? interpolate(ys, us, point.coordinate) : interpolate(xs, vs, point.coordinate);
    const double allowed = point.status == "SOURCE_CONFLICT" ? conflict_tolerance : tolerance;
    EXPECT_NEAR(computed, point.value, allowed) << point.quantity << " at " << point.coordinate << " Re " << reynolds;
    ++compared;
  }
  EXPECT_GE(compared, 30);
}

TEST(GhiaCavity, Reynolds100) { compare_with_ghia(100, 0.01, 0.03, 60); }

TEST(GhiaCavity, Reynolds1000) { compare_with_ghia(1000, 0.02, 0.05, 150); }

}  // namespace
