#include "physics/heat_diagnostics.hpp"

#include "config/names.hpp"
#include "grid/index_ranges.hpp"

#include <string>

namespace eddy::physics {
namespace {

// Sum over this rank's cells next to the wall on `side` of `axis` of the wall-normal gradient dc/dx_axis.
Real local_wall_gradient_sum(const Field& field, const operators::StaggeredGrid& grid, int axis, int side,
                             Real wall_value) {
  const auto& s = grid.shape;
  const int g = s.ghost, n = s.cells[axis];
  Int3 lo{g, g, g};
  Int3 hi{g + s.cells[0], g + s.cells[1], g + s.cells[2]};
  lo[axis] = side == 0 ? g : g + n - 1;
  hi[axis] = lo[axis] + 1;
  const int step = side == 0 ? 1 : -1;  // towards the interior
  const int di = axis == 0 ? step : 0, dj = axis == 1 ? step : 0, dk = axis == 2 ? step : 0;
  const Real inv_h = 1 / grid.spacing[axis];
  const Real orientation = side == 0 ? 1 : -1;  // d/dn_inward = orientation * d/dx_axis
  const Field c = field;
  Real sum = 0;
  if (grid.stretched) {
    // The gradient of the parabola through the wall value and the first two centres, d1 and d2 from the wall, each
    // wall cell weighted by its area over the mean area, so that the caller's mean over the cells is by area.
    const grid::GridMetric m = grid.metric;
    const Real mean_area = grid.spacing[0] * grid.spacing[1] * grid.spacing[2] / grid.spacing[axis];
    Kokkos::parallel_reduce(
        "physics::wall_gradient_stretched", grid::box(lo, hi),
        KOKKOS_LAMBDA(int i, int j, int k, Real& local) {
          const int n = axis == 0 ? i : (axis == 1 ? j : k);
          const grid::AxisMetric& normal = m.along(axis);
          const Real d1 = Real(0.5) * normal.width(n), d2 = normal.width(n) + Real(0.5) * normal.width(n + step);
          const Real c1 = c(i, j, k) - wall_value, c2 = c(i + di, j + dj, k + dk) - wall_value;
          const Real inward = (c1 * d2 * d2 - c2 * d1 * d1) / (d1 * d2 * (d2 - d1));
          const Real area = m.volume(i, j, k) / normal.width(n);
          local += orientation * inward * area / mean_area;
        },
        sum);
    return sum;
  }
  Kokkos::parallel_reduce(
      "physics::wall_gradient", grid::box(lo, hi),
      KOKKOS_LAMBDA(int i, int j, int k, Real& local) {
        const Real inward = (-8 * wall_value + 9 * c(i, j, k) - c(i + di, j + dj, k + dk)) * inv_h / 3;
        local += orientation * inward;
      },
      sum);
  return sum;
}

}  // namespace

void scalar_diagnostics(const config::ScalarConfig& scalar, const Field& field, const grid::Decomposition& decomp,
                        const operators::StaggeredGrid& grid, const parallel::Reducer& reducer,
                        std::vector<NamedValue>& out) {
  const Field c = field;
  Real sum = 0, lowest = 0, highest = 0;
  // The mean by volume: each cell weighted by its volume over the mean cell volume (1 on a uniform grid).
  const bool stretched = grid.stretched;
  const grid::GridMetric m = grid.metric;
  const Real inv_mean_volume = 1 / (grid.spacing[0] * grid.spacing[1] * grid.spacing[2]);
  Kokkos::parallel_reduce(
      "physics::scalar_range", grid::owned_cells(grid.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& s, Real& mn, Real& mx) {
        const Real value = c(i, j, k);
        s += stretched ? value * m.volume(i, j, k) * inv_mean_volume : value;
        if (!(value >= mn)) mn = value;
        if (!(value <= mx)) mx = value;
      },
      Kokkos::Sum<Real>(sum), Kokkos::Min<Real>(lowest), Kokkos::Max<Real>(highest));
  // Nusselt sums per face (0 on ranks away from the wall), reduced with the mean in one call.
  std::array<Real, 7> sums{sum, 0, 0, 0, 0, 0, 0};
  bool nusselt[3] = {false, false, false};
  for (int axis = 0; axis < decomp.global.dim; ++axis) {
    const auto& low = scalar.boundary[2 * axis];
    const auto& high = scalar.boundary[2 * axis + 1];
    const bool heated = low.type == config::ScalarBoundaryType::value &&
                        high.type == config::ScalarBoundaryType::value && low.value != high.value &&
                        decomp.global.cells[axis] >= 2;
    if (!heated) continue;
    nusselt[axis] = true;
    for (int side = 0; side < 2; ++side) {
      if (!decomp.on_boundary(axis, side)) continue;
      sums[1 + 2 * axis + side] =
          local_wall_gradient_sum(field, grid, axis, side, scalar.boundary[2 * axis + side].value);
    }
  }
  sums = reducer.allreduce(sums, parallel::ReduceOp::sum);
  const auto range = reducer.allreduce(std::array<Real, 2>{-lowest, highest}, parallel::ReduceOp::max);
  const double cells = static_cast<double>(decomp.global.total_cells());
  out.push_back({scalar.name + "_mean", sums[0] / cells});
  out.push_back({scalar.name + "_min", -range[0]});
  out.push_back({scalar.name + "_max", range[1]});
  for (int axis = 0; axis < 3; ++axis) {
    if (!nusselt[axis]) continue;
    const double wall_cells = cells / decomp.global.cells[axis];
    const double difference = scalar.boundary[2 * axis].value - scalar.boundary[2 * axis + 1].value;
    for (int side = 0; side < 2; ++side) {
      const double mean_gradient = sums[1 + 2 * axis + side] / wall_cells;
      out.push_back({scalar.name + "_nusselt_" + std::string(config::face_names[2 * axis + side]),
                     -mean_gradient * decomp.global.length[axis] / difference});
    }
  }
}

}  // namespace eddy::physics
