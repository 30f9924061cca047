#include "solver/laplacian.hpp"

#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"

namespace eddy::solver {

void apply_laplacian(Field out, Field phi, const fields::LocalShape& shape, const Real3& spacing, int dimensions) {
  const auto w = stencil_weights(spacing, dimensions);
  if (grid::use_cell_pairs(shape, {out, phi})) {
    laplacian_by_pairs(out, phi, Field(), shape, w);
    return;
  }
  grid::for_each_owned_cell(
      "poisson::laplacian", shape,
      KOKKOS_LAMBDA(int i, int j, int k) { out(i, j, k) = laplacian_at(phi, i, j, k, w); });
}

}  // namespace eddy::solver
