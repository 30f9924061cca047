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

// The in-plane neighbours of a thread's two rows at flat offset p (row j): the rows south of the first and north of
// the second, and the cells west and east of each pair.
struct InPlaneNeighbours {
  RealPair south, north;
  Real west0 = 0, east0 = 0, west1 = 0, east1 = 0;
};

/// The in-plane neighbours of the two rows at flat offset p.
KOKKOS_FORCEINLINE_FUNCTION InPlaneNeighbours load_in_plane(const Real* phi, int p, int sy) {
  InPlaneNeighbours n;
  n.south = grid::load_pair(phi, p - sy);
  n.north = grid::load_pair(phi, p + 2 * sy);
  n.west0 = phi[p - 1];
  n.east0 = phi[p + 2];
  n.west1 = phi[p + sy - 1];
  n.east1 = phi[p + sy + 2];
  return n;
}

/// laplacian_columns in 3D with two rows per thread (an even number of rows): a thread's rows are each other's y
/// neighbours, so a tile of 32 x 8 threads covers 16 rows and reads half as many rows around it, and the loads per
/// cell drop from 2.5 to 2. At least MinBlocks blocks resident per multiprocessor; with InPlaneAhead the in-plane
/// neighbours of plane k + 1 are loaded while plane k is computed, so they are in flight across its stores.
template <int MinBlocks, bool InPlaneAhead>
void laplacian_two_rows(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                        const StencilWeights& w) {
  const int g = shape.ghost;
  const int sy = shape.extent(0), sz = sy * shape.extent(1), top = shape.extent(2) - 1;
  const Real* __restrict__ phi = phi_field.data();
  const Real* __restrict__ rhs = rhs_field.data();
  Real* __restrict__ out = out_field.data();
  const auto& n = shape.cells;
  grid::for_each_pair_column<MinBlocks>(
      "poisson::laplacian_by_pairs_two_rows", {g, g, g}, {g + n[0], g + n[1] / 2, g + n[2]},
      KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int j = g + 2 * (c.j - g);
        const int column = c.i + sy * j;
        RealPair below0 = grid::load_pair(phi, column + sz * (c.k0 - 1)),
                 below1 = grid::load_pair(phi, column + sy + sz * (c.k0 - 1));
        RealPair centre0 = grid::load_pair(phi, column + sz * c.k0),
                 centre1 = grid::load_pair(phi, column + sy + sz * c.k0);
        RealPair above0 = grid::load_pair(phi, column + sz * (c.k0 + 1)),
                 above1 = grid::load_pair(phi, column + sy + sz * (c.k0 + 1));
        InPlaneNeighbours around{};
        if (InPlaneAhead) around = load_in_plane(phi, column + sz * c.k0, sy);
        for (int k = c.k0; k < c.k1; ++k) {
          const int ahead = column + sz * (k + 2 < top ? k + 2 : top);
          const RealPair next0 = grid::load_pair(phi, ahead), next1 = grid::load_pair(phi, ahead + sy);
          const int p = column + sz * k;
          InPlaneNeighbours around_next{};
          if (InPlaneAhead) {
            around_next = load_in_plane(phi, column + sz * (k + 1 < c.k1 ? k + 1 : k), sy);
          } else {
            around = load_in_plane(phi, p, sy);
          }
          RealPair r0, r1;
          r0.even = w.x * (around.west0 + centre0.odd) + w.y * (around.south.even + centre1.even) +
                    w.diagonal() * centre0.even;
          r0.odd =
              w.x * (centre0.even + around.east0) + w.y * (around.south.odd + centre1.odd) + w.diagonal() * centre0.odd;
          r1.even = w.x * (around.west1 + centre1.odd) + w.y * (centre0.even + around.north.even) +
                    w.diagonal() * centre1.even;
          r1.odd =
              w.x * (centre1.even + around.east1) + w.y * (centre0.odd + around.north.odd) + w.diagonal() * centre1.odd;
          r0.even += w.z * (below0.even + above0.even);
          r0.odd += w.z * (below0.odd + above0.odd);
          r1.even += w.z * (below1.even + above1.even);
          r1.odd += w.z * (below1.odd + above1.odd);
          if (rhs != nullptr) {
            const RealPair b0 = grid::load_pair(rhs, p), b1 = grid::load_pair(rhs, p + sy);
            r0.even = b0.even - r0.even;
            r0.odd = b0.odd - r0.odd;
            r1.even = b1.even - r1.even;
            r1.odd = b1.odd - r1.odd;
          }
          grid::store_pair(out, p, r0, c.first_in, c.second_in);
          grid::store_pair(out, p + sy, r1, c.first_in, c.second_in);
          below0 = centre0;
          below1 = centre1;
          centre0 = above0;
          centre1 = above1;
          above0 = next0;
          above1 = next1;
          if (InPlaneAhead) around = around_next;
        }
      });
}

}  // namespace

void laplacian_by_pairs(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w) {
  require(grid::fits_cell_pairs(shape, {out, phi, rhs}),
          "laplacian_by_pairs: rows of odd length or fields not aligned to pairs of values");
  // Two rows per thread where they pair up; on an H200 at 512^3 the apply took 0.588-0.591 ms (0.88 of the copy of
  // pairs) against 0.624-0.626 with one row, the residual at three blocks per multiprocessor 0.839 ms (0.91 of the
  // triad) against 0.890-0.895; the residual unbounded (80 registers) 0.974-0.982 and both at four (spills) 0.62 /
  // 0.95. The in-plane neighbours a plane ahead take the residual to 0.799-0.804 ms (0.94) and the apply to
  // 0.603-0.609 (0.86), so only the residual loads them ahead.
  if (w.z != 0 && shape.cells[1] % 2 == 0) {
    if (rhs.data() == nullptr) return laplacian_two_rows<0, false>(out, phi, rhs, shape, w);
    return laplacian_two_rows<3, true>(out, phi, rhs, shape, w);
  }
  if (w.z != 0) {
    laplacian_columns<true>(out, phi, rhs, shape, w);
  } else {
    laplacian_columns<false>(out, phi, rhs, shape, w);
  }
}

}  // namespace eddy::solver
