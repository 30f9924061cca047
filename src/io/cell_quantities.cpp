#include "io/cell_quantities.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::io {

CellQuantities allocate_cell_quantities(const fields::LocalShape& shape) {
  const int nx = shape.cells[0], ny = shape.cells[1], nz = shape.cells[2];
  CellQuantities out;
  out.velocity = decltype(out.velocity)("io::velocity_cells", 3, nx, ny, nz);
  out.pressure = decltype(out.pressure)("io::pressure_cells", nx, ny, nz);
  out.vorticity = decltype(out.vorticity)("io::vorticity_cells", nx, ny, nz);
  out.q_criterion = decltype(out.q_criterion)("io::q_criterion_cells", nx, ny, nz);
  return out;
}

void copy_owned_cells(const Field& field, int ghost, const Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>& out) {
  const auto in = field;
  const auto cells = out;
  const int g = ghost;
  const fields::LocalShape shape{{int(out.extent(0)), int(out.extent(1)), int(out.extent(2))}, ghost};
  Kokkos::parallel_for(
      "io::owned_cells", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k) { cells(i - g, j - g, k - g) = in(i, j, k); });
}

void compute_cell_quantities(const fields::FlowState& state, const grid::GlobalGrid& grid, CellQuantities& out) {
  const auto u = state.u, v = state.v, w = state.w, p = state.p;
  const auto velocity = out.velocity;
  const auto pressure = out.pressure;
  const auto vorticity = out.vorticity;
  const auto q_criterion = out.q_criterion;
  const int g = state.shape.ghost;
  const bool three_d = grid.dim == 3;
  const Real inv_dx = 1 / grid.spacing(0), inv_dy = 1 / grid.spacing(1);
  const Real inv_dz = three_d ? 1 / grid.spacing(2) : 0;  // 2D: no z derivatives
  Kokkos::parallel_for(
      "io::cell_quantities", grid::owned_cells(state.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        // Face values averaged to the centre of cell (i, j, k) and of its neighbours.
        auto uc = [&](int a, int b, int c) { return Real(0.5) * (u(a - 1, b, c) + u(a, b, c)); };
        auto vc = [&](int a, int b, int c) { return Real(0.5) * (v(a, b - 1, c) + v(a, b, c)); };
        auto wc = [&](int a, int b, int c) { return Real(0.5) * (w(a, b, c - 1) + w(a, b, c)); };
        const Real du_dx = (u(i, j, k) - u(i - 1, j, k)) * inv_dx;
        const Real dv_dy = (v(i, j, k) - v(i, j - 1, k)) * inv_dy;
        const Real dw_dz = (w(i, j, k) - w(i, j, k - 1)) * inv_dz;
        const Real du_dy = Real(0.5) * (uc(i, j + 1, k) - uc(i, j - 1, k)) * inv_dy;
        const Real du_dz = Real(0.5) * (uc(i, j, k + 1) - uc(i, j, k - 1)) * inv_dz;
        const Real dv_dx = Real(0.5) * (vc(i + 1, j, k) - vc(i - 1, j, k)) * inv_dx;
        const Real dv_dz = Real(0.5) * (vc(i, j, k + 1) - vc(i, j, k - 1)) * inv_dz;
        const Real dw_dx = Real(0.5) * (wc(i + 1, j, k) - wc(i - 1, j, k)) * inv_dx;
        const Real dw_dy = Real(0.5) * (wc(i, j + 1, k) - wc(i, j - 1, k)) * inv_dy;
        const int a = i - g, b = j - g, c = k - g;
        velocity(0, a, b, c) = uc(i, j, k);
        velocity(1, a, b, c) = vc(i, j, k);
        velocity(2, a, b, c) = wc(i, j, k);
        pressure(a, b, c) = p(i, j, k);
        const Real omega_x = dw_dy - dv_dz, omega_y = du_dz - dw_dx, omega_z = dv_dx - du_dy;
        vorticity(a, b, c) =
            three_d ? Kokkos::sqrt(omega_x * omega_x + omega_y * omega_y + omega_z * omega_z) : omega_z;
        // Q = (|Omega|^2 - |S|^2) / 2 = -(1/2) sum_ij (du_i/dx_j)(du_j/dx_i)
        q_criterion(a, b, c) = Real(-0.5) * (du_dx * du_dx + dv_dy * dv_dy + dw_dz * dw_dz +
                                             2 * (du_dy * dv_dx + du_dz * dw_dx + dv_dz * dw_dy));
      });
}

}  // namespace eddy::io
