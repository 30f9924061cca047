#include "solver/laplacian.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::solver {

void apply_laplacian(Field out, Field phi, const fields::LocalShape& shape, const Real3& spacing, int dimensions) {
  const auto w = stencil_weights(spacing, dimensions);
  Kokkos::parallel_for(
      "poisson::laplacian", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k) { out(i, j, k) = laplacian_at(phi, i, j, k, w); });
}

}  // namespace eddy::solver
