// Cell-centred output quantities are exact on a linear velocity field, whose gradient tensor G is known:
// velocity at the centre, vorticity w_z (2D) or |curl u| (3D), Q = -(1/2) G_ij G_ji; on 1, 2 and 4 ranks.
#include "io/cell_quantities.hpp"
#include "io_test_support.hpp"
#include "round_off.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace eddy;

// du_i/dx_j of the linear field below (rows u, v, w).
constexpr double G[3][3] = {{2.0, 3.0, 0.5}, {0.25, -2.0, 1.0}, {-1.0, 0.75, 0.0}};
constexpr double base[3] = {1.0, -1.0, 0.5};

double linear_velocity(int component, double x, double y, double z, bool three_d) {
  if (component == 2 && !three_d) return 0;
  return base[component] + G[component][0] * x + G[component][1] * y + (three_d ? G[component][2] * z : 0);
}

void check_linear_field(int dimensions, Int3 cells) {
  const bool three_d = dimensions == 3;
  const auto deck = io_test::make_deck(dimensions, cells, {2.0, 1.5, three_d ? 1.0 : 0.1}, {-1.0, 0.5, 0.0});
  const auto decomp = grid::decompose(io_test::grid_of(deck), MPI_COMM_WORLD);
  const auto shape = fields::local_shape(decomp, 1);
  auto state = fields::FlowState::allocate(shape);
  io_test::fill_state(state, decomp, [&](int q, double x, double y, double z) {
    return q < 3 ? linear_velocity(q, x, y, z, three_d) : x * y;
  });
  auto out = io::allocate_cell_quantities(shape);
  io::compute_cell_quantities(state, decomp, out);
  auto velocity = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.velocity);
  auto pressure = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.pressure);
  auto vorticity = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.vorticity);
  auto q_criterion = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.q_criterion);

  const int n = three_d ? 3 : 2;
  double gg = 0;  // sum_ij G_ij G_ji over the active axes
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) gg += G[a][b] * G[b][a];
  const double omega_z = G[1][0] - G[0][1];
  const double omega_x = three_d ? G[2][1] - G[1][2] : 0, omega_y = three_d ? G[0][2] - G[2][0] : 0;
  const double expected_vorticity =
      three_d ? std::sqrt(omega_x * omega_x + omega_y * omega_y + omega_z * omega_z) : omega_z;
  const auto& grid = decomp.global;
  for (int k = 0; k < shape.cells[2]; ++k) {
    for (int j = 0; j < shape.cells[1]; ++j) {
      for (int i = 0; i < shape.cells[0]; ++i) {
        const double x = grid.origin[0] + (decomp.offset[0] + i + 0.5) * grid.spacing(0);
        const double y = grid.origin[1] + (decomp.offset[1] + j + 0.5) * grid.spacing(1);
        const double z = grid.origin[2] + (decomp.offset[2] + k + 0.5) * grid.spacing(2);
        for (int c = 0; c < 3; ++c) {
          EXPECT_NEAR(velocity(c, i, j, k), linear_velocity(c, x, y, z, three_d),
                      eddy::testing::round_off(1e-12, 1e-5));
        }
        EXPECT_NEAR(pressure(i, j, k), x * y, eddy::testing::round_off(1e-12, 1e-5));
        EXPECT_NEAR(vorticity(i, j, k), expected_vorticity, eddy::testing::round_off(1e-11, 1e-4));
        EXPECT_NEAR(q_criterion(i, j, k), -0.5 * gg, eddy::testing::round_off(1e-11, 1e-4));
      }
    }
  }
}

TEST(CellQuantities, ExactOnLinearVelocity2D) { check_linear_field(2, {16, 12, 1}); }

TEST(CellQuantities, ExactOnLinearVelocity3D) { check_linear_field(3, {8, 6, 4}); }

}  // namespace
