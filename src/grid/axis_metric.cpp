#include "grid/axis_metric.hpp"

#include <string>

namespace eddy::grid {

AxisMetric make_axis_metric(const GlobalGrid& global, int axis, int offset, int extent, int ghost) {
  const std::string name = std::string(1, "xyz"[axis]);
  AxisMetric m{Kokkos::View<Real*, MemSpace>("inv_width_" + name, extent),
               Kokkos::View<Real*, MemSpace>("inv_gap_" + name, extent),
               Kokkos::View<Real*, MemSpace>("width_" + name, extent)};
  auto inv_width = Kokkos::create_mirror_view(m.inv_width);
  auto inv_gap = Kokkos::create_mirror_view(m.inv_gap);
  auto width = Kokkos::create_mirror_view(m.width);
  for (int i = 0; i < extent; ++i) {
    const int n = offset + i - ghost;
    const double here = global.width(axis, n), next = global.width(axis, n + 1);
    width(i) = here;
    inv_width(i) = 1 / here;
    inv_gap(i) = 2 / (here + next);  // centres sit half a width inside their faces
  }
  Kokkos::deep_copy(m.inv_width, inv_width);
  Kokkos::deep_copy(m.inv_gap, inv_gap);
  Kokkos::deep_copy(m.width, width);
  return m;
}

GridMetric make_grid_metric(const Decomposition& decomp, const LocalShape& shape) {
  const auto axis = [&](int a) {
    return make_axis_metric(decomp.global, a, decomp.offset[a], shape.extent(a), shape.ghost);
  };
  return {axis(0), axis(1), axis(2)};
}

}  // namespace eddy::grid
