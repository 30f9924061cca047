#include "solver/laplacian.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "solver/level_sums.hpp"
#include "solver/poisson_level.hpp"

namespace eddy::solver {
namespace {

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

// Blocks resident per multiprocessor: unbounded, the kernel takes more registers than three blocks leave it and runs
// slower; at four it spills (tests/perf/RESULTS.md).
constexpr int laplacian_resident_blocks = 3;

}  // namespace

bool fits_laplacian_pairs(const fields::LocalShape& shape, const StencilWeights& w,
                          std::initializer_list<Field> fields) {
  return w.z != 0 && shape.cells[1] % 2 == 0 && grid::fits_cell_pairs(shape, fields);
}

// A thread's two rows are each other's y neighbours, so a tile of threads reads half as many rows around it as with
// one row per thread. Its z neighbours stay in registers from plane to plane, and the in-plane neighbours of plane
// k + 1 are loaded while plane k is computed, so that their loads are in flight across its stores.
void laplacian_by_pairs(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                        const StencilWeights& w) {
  require(fits_laplacian_pairs(shape, w, {out_field, phi_field, rhs_field}),
          "laplacian_by_pairs: needs a 3D stencil, an even number of rows, rows of even length and fields aligned to "
          "pairs of values");
  const int g = shape.ghost;
  const int sy = shape.extent(0), sz = sy * shape.extent(1), top = shape.extent(2) - 1;
  const Real* __restrict__ phi = phi_field.data();
  const Real* __restrict__ rhs = rhs_field.data();
  Real* __restrict__ out = out_field.data();
  const auto& n = shape.cells;
  grid::for_each_pair_column<laplacian_resident_blocks>(
      "poisson::laplacian_by_pairs_two_rows", {g, g, g}, {g + n[0], g + n[1] / 2, g + n[2]}, shape.pair_planes,
      KOKKOS_LAMBDA(const grid::PairColumn& c) {
        const int j = g + 2 * (c.j - g);
        const int column = c.i + sy * j;
        RealPair below0 = grid::load_pair(phi, column + sz * (c.k0 - 1)),
                 below1 = grid::load_pair(phi, column + sy + sz * (c.k0 - 1));
        RealPair centre0 = grid::load_pair(phi, column + sz * c.k0),
                 centre1 = grid::load_pair(phi, column + sy + sz * c.k0);
        RealPair above0 = grid::load_pair(phi, column + sz * (c.k0 + 1)),
                 above1 = grid::load_pair(phi, column + sy + sz * (c.k0 + 1));
        InPlaneNeighbours around = load_in_plane(phi, column + sz * c.k0, sy);
        for (int k = c.k0; k < c.k1; ++k) {
          const int ahead = column + sz * (k + 2 < top ? k + 2 : top);
          const RealPair next0 = grid::load_pair(phi, ahead), next1 = grid::load_pair(phi, ahead + sy);
          const int p = column + sz * k;
          const InPlaneNeighbours around_next = load_in_plane(phi, column + sz * (k + 1 < c.k1 ? k + 1 : k), sy);
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
          around = around_next;
        }
      });
}

void residual(Field r, Field x, Field b, const PoissonLevel& level) {
  const auto w = level.weights();
  if (grid::use_cell_pairs(level.shape, {r, x, b}) && fits_laplacian_pairs(level.shape, w, {r, x, b})) {
    return laplacian_by_pairs(r, x, b, level.shape, w);
  }
  grid::for_each_owned_cell(
      "poisson::residual", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - laplacian_at(x, i, j, k, w); });
}

void residual_with_norms(Field r, Field x, Field b, Real shift, const PoissonLevel& level, Buffer sums,
                         const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::residual_norms", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, Sums<2>& s) {
        const Real rhs = b(i, j, k) - shift;
        const Real res = rhs - laplacian_at(x, i, j, k, w);
        r(i, j, k) = res;
        s.value[0] += res * res;
        s.value[1] += rhs * rhs;
      },
      sums_into<2>(sums));
  reduce_sums(sums, 2, level, reducer);
}

void residual_sums(Field x, Field b, const PoissonLevel& level, Buffer sums, const parallel::Reducer& reducer) {
  const auto w = level.weights();
  grid::reduce_over_owned_cells(
      "poisson::residual_sums", level.shape,
      KOKKOS_LAMBDA(int i, int j, int k, ResidualSums& s) {
        const Real rhs = b(i, j, k), centre = x(i, j, k);
        const Real res = rhs - (laplacian_neighbours(x, i, j, k, w) + w.diagonal() * centre);
        s.value[0] += res * res;
        s.value[1] += rhs * rhs;
        s.value[2] += centre;
      },
      sums_into<3>(sums));
  reduce_sums(sums, 3, level, reducer);
}

}  // namespace eddy::solver
