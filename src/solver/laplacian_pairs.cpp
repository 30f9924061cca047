#include "core/error.hpp"
#include "grid/pair_columns.hpp"
#include "solver/laplacian.hpp"

namespace eddy::solver {
namespace {

// The Laplacian by columns of cell pairs (grid/pair_columns.hpp). Without the launch bounds of that loop (one tile per
// block) and with a run-time test for the z terms it ran at 0.74 of the copy of pairs instead of 0.82-0.84 (H200).

/// laplacian_by_pairs with the z terms (3D) or without (2D, whose z ghosts the stencil never reads).
template <bool HasZ>
void laplacian_columns(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                       const StencilWeights& w) {
  const int g = shape.ghost;
  const int sy = shape.extent(0), sz = sy * shape.extent(1), top = shape.extent(2) - 1;
  const Real* __restrict__ phi = phi_field.data();
  const Real* __restrict__ rhs = rhs_field.data();
  Real* __restrict__ out = out_field.data();
  const auto& n = shape.cells;
  grid::for_each_pair_column(
      "poisson::laplacian_by_pairs", {g, g, g}, {g + n[0], g + n[1], g + n[2]},
      KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int column = c.i + sy * c.j;
        RealPair below{}, centre = grid::load_pair(phi, column + sz * c.k0), above{};
        if (HasZ) {
          below = grid::load_pair(phi, column + sz * (c.k0 - 1));
          above = grid::load_pair(phi, column + sz * (c.k0 + 1));
        }
        for (int k = c.k0; k < c.k1; ++k) {
          RealPair next{};
          if (HasZ) next = grid::load_pair(phi, column + sz * (k + 2 < top ? k + 2 : top));  // a plane early
          const int p = column + sz * k;
          const RealPair south = grid::load_pair(phi, p - sy), north = grid::load_pair(phi, p + sy);
          const Real west = phi[p - 1], east = phi[p + 2];
          RealPair r;
          r.even = w.x * (west + centre.odd) + w.y * (south.even + north.even) + w.diagonal() * centre.even;
          r.odd = w.x * (centre.even + east) + w.y * (south.odd + north.odd) + w.diagonal() * centre.odd;
          if (HasZ) {
            r.even += w.z * (below.even + above.even);
            r.odd += w.z * (below.odd + above.odd);
          }
          if (rhs != nullptr) {
            const RealPair b = grid::load_pair(rhs, p);
            r.even = b.even - r.even;
            r.odd = b.odd - r.odd;
          }
          grid::store_pair(out, p, r, c.first_in, c.second_in);
          if (HasZ) {
            below = centre;
            centre = above;
            above = next;
          }
        }
      });
}

}  // namespace

void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w) {
  require(grid::fits_cell_pairs(shape, {out, phi, rhs}),
          "laplacian_by_pairs: rows of odd length or fields not aligned to pairs of values");
  if (w.z != 0) {
    laplacian_columns<true>(out, phi, rhs, shape, w);
  } else {
    laplacian_columns<false>(out, phi, rhs, shape, w);
  }
}

}  // namespace eddy::solver
