#include "io/cell_quantities.hpp"

#include "grid/axis_metric.hpp"

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

void compute_cell_quantities(const fields::FlowState& state, const grid::Decomposition& decomp, CellQuantities& out) {
  const auto u = state.u, v = state.v, w = state.w, p = state.p;
  const auto velocity = out.velocity;
  const auto pressure = out.pressure;
  const auto vorticity = out.vorticity;
  const auto q_criterion = out.q_criterion;
  const int g = state.shape.ghost;
  const bool three_d = decomp.global.dim == 3;
  // The cells' widths, so that stretched grids differentiate over their own spacing (exactly 1 / h and 1 / (2 h) on a
  // uniform axis).
  const grid::GridMetric m = grid::make_grid_metric(decomp, state.shape);
  const Real z_on = three_d ? 1 : 0;  // 2D: no z derivatives
  Kokkos::parallel_for(
      "io::cell_quantities", grid::owned_cells(state.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        // Face values averaged to the centre of cell (i, j, k) and of its neighbours.
        auto uc = [&](int a, int b, int c) { return Real(0.5) * (u(a - 1, b, c) + u(a, b, c)); };
        auto vc = [&](int a, int b, int c) { return Real(0.5) * (v(a, b - 1, c) + v(a, b, c)); };
        auto wc = [&](int a, int b, int c) { return Real(0.5) * (w(a, b, c - 1) + w(a, b, c)); };
        // 1 / (distance between the centres on either side), for the central differences.
        auto across = [](const grid::AxisMetric& a, int n) {
          return 1 / (Real(0.5) * a.width(n - 1) + a.width(n) + Real(0.5) * a.width(n + 1));
        };
        const Real ix = m.x.inv_width(i), iy = m.y.inv_width(j), iz = z_on * m.z.inv_width(k);
        const Real cx = across(m.x, i), cy = across(m.y, j), cz = z_on * across(m.z, k);
        const Real du_dx = (u(i, j, k) - u(i - 1, j, k)) * ix;
        const Real dv_dy = (v(i, j, k) - v(i, j - 1, k)) * iy;
        const Real dw_dz = (w(i, j, k) - w(i, j, k - 1)) * iz;
        const Real du_dy = (uc(i, j + 1, k) - uc(i, j - 1, k)) * cy;
        const Real du_dz = (uc(i, j, k + 1) - uc(i, j, k - 1)) * cz;
        const Real dv_dx = (vc(i + 1, j, k) - vc(i - 1, j, k)) * cx;
        const Real dv_dz = (vc(i, j, k + 1) - vc(i, j, k - 1)) * cz;
        const Real dw_dx = (wc(i + 1, j, k) - wc(i - 1, j, k)) * cx;
        const Real dw_dy = (wc(i, j + 1, k) - wc(i, j - 1, k)) * cy;
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
