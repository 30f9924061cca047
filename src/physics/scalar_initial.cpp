#include "physics/scalar_initial.hpp"

#include "core/counter_hash.hpp"
#include "grid/index_ranges.hpp"
#include "physics/field_expression.hpp"

namespace eddy::physics {

void set_initial_scalar(const config::ScalarConfig& scalar, const std::string& path, const config::Constants& constants,
                        const grid::Decomposition& decomp, const Field& field, int ghost, MPI_Comm comm) {
  const auto& initial = scalar.initial;
  if (initial.type == config::ScalarInitialType::expression) {
    Kokkos::deep_copy(field, 0);
    const config::Expression expression(initial.expression, constants);
    return fill_from_expression(expression, path + ".initial.value", decomp, field, cell_centres, ghost, comm);
  }
  const int axis = initial.axis;
  const bool linear = initial.type == config::ScalarInitialType::linear;
  const Real base = initial.value, low = initial.low, high = initial.high, amplitude = initial.amplitude;
  const unsigned long long seed = initial.seed;
  const int cells[3] = {decomp.global.cells[0], decomp.global.cells[1], decomp.global.cells[2]};
  const int offset[3] = {decomp.offset[0], decomp.offset[1], decomp.offset[2]};
  const int axis_cells = cells[axis];
  const int axis_offset = offset[axis];
  const int cells_x = cells[0], cells_y = cells[1];
  const int offset_x = offset[0], offset_y = offset[1], offset_z = offset[2];
  const Field f = field;
  Kokkos::deep_copy(f, 0);
  Kokkos::parallel_for(
      "physics::initial_scalar", grid::owned_cells(fields::LocalShape{decomp.local_cells, ghost}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        const int idx[3] = {i, j, k};
        Real value = base;
        if (linear) {
          const Real s = (axis_offset + idx[axis] - ghost + Real(0.5)) / axis_cells;
          value = low + (high - low) * s;
        }
        if (amplitude > 0) {
          const long long global =
              (static_cast<long long>(offset_z + k - ghost) * cells_y + (offset_y + j - ghost)) * cells_x +
              (offset_x + i - ghost);
          value += amplitude * face_hash(global, seed, 3);
        }
        f(i, j, k) = value;
      });
}

}  // namespace eddy::physics
