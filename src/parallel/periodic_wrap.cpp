#include "parallel/periodic_wrap.hpp"

#include "core/error.hpp"
#include "grid/fast_divisor.hpp"
#include "parallel/halo_exchange.hpp"

#include <string>

namespace eddy::parallel {
namespace {

// One pass: the ghost layers along `axis` of every field, over the box [lo, hi) of the two other axes. Work items run
// fastest along the first other axis (x where it is one, so that rows are read and written whole), then the second,
// then the layer (`width` below the owned cells, then `width` above), then the field.
struct AxisPass {
  Kokkos::Array<Real*, HaloExchange::max_fields> data;
  int stride[3];
  int axis, across, along;  // the wrapped axis, the fast and the slow other axis
  int ghost, cells, width;  // of the wrapped axis
  int lo_across, lo_along;
  int n_across, n_along;
  grid::FastDivisor by_across, by_along, by_layers;

  KOKKOS_INLINE_FUNCTION void operator()(int item) const {
    const int rows = by_across.divide(item), a = item - rows * n_across;
    const int planes = by_along.divide(rows), b = rows - planes * n_along;
    const int field = by_layers.divide(planes), layer = planes - field * 2 * width;
    const int ghost_index = layer < width ? ghost - width + layer : ghost + cells + layer - width;
    int image = ghost_index;
    while (image < ghost) image += cells;
    while (image >= ghost + cells) image -= cells;
    const int rest = (lo_across + a) * stride[across] + (lo_along + b) * stride[along];
    Real* f = data[field];
    f[rest + ghost_index * stride[axis]] = f[rest + image * stride[axis]];
  }
};

}  // namespace

std::array<bool, 3> local_wrap_axes(const std::vector<HaloSegment>& segments) {
  std::array<bool, 3> axes{false, false, false};
  for (const auto& s : segments) {
    if (!s.local) return {false, false, false};
    for (int a = 0; a < 3; ++a) axes[a] = axes[a] || s.direction[a] != 0;
  }
  return axes;
}

void wrap_periodic_axes(const std::vector<Field>& fields, const fields::LocalShape& shape, int width,
                        const std::array<bool, 3>& axes) {
  require(!fields.empty() && static_cast<int>(fields.size()) <= HaloExchange::max_fields,
          "wrap_periodic_axes: between 1 and " + std::to_string(HaloExchange::max_fields) + " fields");
  const int g = shape.ghost;
  for (int axis = 0; axis < 3; ++axis) {
    if (!axes[axis]) continue;
    AxisPass pass{};
    for (std::size_t f = 0; f < fields.size(); ++f) pass.data[static_cast<int>(f)] = fields[f].data();
    for (int a = 0; a < 3; ++a) pass.stride[a] = static_cast<int>(fields[0].stride(a));
    pass.axis = axis;
    pass.across = axis == 0 ? 1 : 0;
    pass.along = axis == 2 ? 1 : 2;
    pass.ghost = g;
    pass.cells = shape.cells[axis];
    pass.width = width;
    // An other axis includes its ghost layers where an earlier pass has filled them.
    const auto grown = [&](int other) { return axes[other] && other < axis ? width : 0; };
    pass.lo_across = g - grown(pass.across);
    pass.lo_along = g - grown(pass.along);
    pass.n_across = shape.cells[pass.across] + 2 * grown(pass.across);
    pass.n_along = shape.cells[pass.along] + 2 * grown(pass.along);
    pass.by_across = grid::FastDivisor(pass.n_across);
    pass.by_along = grid::FastDivisor(pass.n_along);
    pass.by_layers = grid::FastDivisor(2 * width);
    const long long items = static_cast<long long>(fields.size()) * 2 * width * pass.n_across * pass.n_along;
    require(items < (1LL << 31), "wrap_periodic_axes: 2^31 ghost points or more in one pass");
    Kokkos::parallel_for("halo::wrap_axis", Range(0, static_cast<int>(items)), pass);
  }
}

}  // namespace eddy::parallel
