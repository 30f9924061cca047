#include "solver/restriction.hpp"

#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"

namespace eddy::solver {
namespace {

// The coarsening factor of a restriction along one axis: Fixed where it is not 0, so that the loops over the children
// unroll (the CPU form is far slower with the factors read at run time), else the level's.
template <int Fixed>
struct Factor {
  int value;
  KOKKOS_INLINE_FUNCTION int operator()() const { return Fixed > 0 ? Fixed : value; }
};

/// Which factors restrict_cells takes as constants: those of 3D levels (2, 2, 2) and of 2D levels (2, 2, 1).
enum class FixedFactors { none, cube, square };

FixedFactors fixed_factors(const Int3& factor) {
  if (factor == Int3{2, 2, 2}) return FixedFactors::cube;
  if (factor == Int3{2, 2, 1}) return FixedFactors::square;
  return FixedFactors::none;
}

// restrict_residual_by_cells with the factors FX, FY, FZ where they are not 0.
template <int FX, int FY, int FZ>
void restrict_cells(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                    const Int3& factor) {
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const Factor<FX> fx{factor[0]};
  const Factor<FY> fy{factor[1]};
  const Factor<FZ> fz{factor[2]};
  const Real inv_children = Real(1) / (factor[0] * factor[1] * factor[2]);
  grid::for_each_owned_cell(
      "poisson::restrict_residual", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx() * (ci - gc), j0 = gf + fy() * (cj - gc), k0 = gf + fz() * (ck - gc);
        Real sum = 0;
        for (int c = 0; c < fz(); ++c) {
          for (int b2 = 0; b2 < fy(); ++b2) {
            for (int a = 0; a < fx(); ++a) {
              const int i = i0 + a, j = j0 + b2, k = k0 + c;
              sum += b(i, j, k) - laplacian_at(x, i, j, k, w);
            }
          }
        }
        coarse_b(ci, cj, ck) = sum * inv_children;
      });
}

// The by-cells pass of restrict_residual_with_sums with the factors FX, FY, FZ where they are not 0.
template <int FX, int FY, int FZ>
void restrict_cells_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor, CheckPartials partials) {
  const auto w = fine.weights();
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int nx = coarse.shape.cells[0], ny = coarse.shape.cells[1];
  const Factor<FX> fx{factor[0]};
  const Factor<FY> fy{factor[1]};
  const Factor<FZ> fz{factor[2]};
  const Real inv_children = Real(1) / (factor[0] * factor[1] * factor[2]);
  const fields::FlatField fine_x(x), fine_b(b);
  const bool stores_coarse = coarse_b.data() != nullptr;
  grid::for_each_owned_cell(
      "poisson::restrict_residual_sums", coarse.shape, KOKKOS_LAMBDA(int ci, int cj, int ck) {
        const int i0 = gf + fx() * (ci - gc), j0 = gf + fy() * (cj - gc), k0 = gf + fz() * (ck - gc);
        Real sum = 0;
        ResidualSums share;
        for (int c = 0; c < fz(); ++c) {
          for (int b2 = 0; b2 < fy(); ++b2) {
            for (int a = 0; a < fx(); ++a) {
              const int i = i0 + a, j = j0 + b2, k = k0 + c;
              const Real rhs = fine_b(i, j, k), centre = fine_x(i, j, k);
              const Real res = rhs - (laplacian_neighbours(fine_x, i, j, k, w) + w.diagonal() * centre);
              sum += res;
              share.value[0] += res * res;
              share.value[1] += rhs * rhs;
              share.value[2] += centre;
            }
          }
        }
        if (stores_coarse) coarse_b(ci, cj, ck) = sum * inv_children;
        partials((ci - gc) + nx * ((cj - gc) + ny * (ck - gc))) = share;
      });
}

}  // namespace

void restrict_residual(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                       const Int3& factor) {
  if (use_restriction_columns(fine, factor, {x, b})) {
    return restrict_residual_by_columns(coarse_b, x, b, fine, coarse, CheckPartials());
  }
  restrict_residual_by_cells(coarse_b, x, b, fine, coarse, factor);
}

void restrict_residual_by_cells(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor) {
  switch (fixed_factors(factor)) {
    case FixedFactors::cube:
      return restrict_cells<2, 2, 2>(coarse_b, x, b, fine, coarse, factor);
    case FixedFactors::square:
      return restrict_cells<2, 2, 1>(coarse_b, x, b, fine, coarse, factor);
    case FixedFactors::none:
      return restrict_cells<0, 0, 0>(coarse_b, x, b, fine, coarse, factor);
  }
}

long long check_partial_count(Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                              const Int3& factor) {
  if (use_restriction_columns(fine, factor, {x, b})) return restriction_column_count(coarse);
  const auto& n = coarse.shape.cells;
  return static_cast<long long>(n[0]) * n[1] * n[2];
}

void restrict_residual_with_sums(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                                 const Int3& factor, CheckPartials partials, Buffer sums,
                                 const parallel::Reducer& reducer) {
  const int shares = static_cast<int>(check_partial_count(x, b, fine, coarse, factor));
  require(static_cast<int>(partials.extent(0)) >= shares, "restrict_residual_with_sums: too few partial sums");
  if (use_restriction_columns(fine, factor, {x, b})) {
    restrict_residual_by_columns(coarse_b, x, b, fine, coarse, partials);
  } else {
    switch (fixed_factors(factor)) {
      case FixedFactors::cube:
        restrict_cells_with_sums<2, 2, 2>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
      case FixedFactors::square:
        restrict_cells_with_sums<2, 2, 1>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
      case FixedFactors::none:
        restrict_cells_with_sums<0, 0, 0>(coarse_b, x, b, fine, coarse, factor, partials);
        break;
    }
  }
  Kokkos::parallel_reduce(
      "poisson::check_partials_sum", grid::ReduceRange(0, shares),
      KOKKOS_LAMBDA(int p, ResidualSums& total) { total += partials(p); }, sums_into<3>(sums));
  reduce_sums(sums, 3, fine, reducer);
}

// The column form (GPU builds).
namespace {

// Values of the four fine columns under one coarse column, (x, y) offsets 00, 10, 01, 11 from its first child.
struct Quad {
  Real c00 = 0, c10 = 0, c01 = 0, c11 = 0;
};

// Flat offsets of one level's fields (all of its shape): a point (i, j, k) is at i + j * row + k * plane.
struct FineOffsets {
  int row = 0, plane = 0;
  KOKKOS_INLINE_FUNCTION Quad load(const Real* f, int p) const { return {f[p], f[p + 1], f[p + row], f[p + row + 1]}; }
};

}  // namespace

bool fits_restriction_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields) {
  const auto& n = fine.shape.cells;
  if (factor[0] != 2 || factor[1] != 2 || factor[2] != 2 || fine.decomp.global.dim != 3) return false;
  if (fine.shape.ghost % 2 != 1 || n[0] % 2 != 0 || n[1] % 2 != 0 || n[2] % 2 != 0) return false;
  for (const Field& f : fields) {
    if (f.data() == nullptr) continue;
    if (static_cast<int>(f.stride(1)) != fine.shape.extent(0) ||
        static_cast<int>(f.stride(2)) != fine.shape.extent(0) * fine.shape.extent(1)) {
      return false;
    }
  }
  return true;
}

bool use_restriction_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return fits_restriction_columns(fine, factor, fields);
#else
  (void)fine;
  (void)factor;
  (void)fields;
  return false;
#endif
}

namespace {

template <bool WithSums, bool StoresCoarse>
void restrict_columns(Field coarse_b, Field x, Field b, const PoissonLevel& fine, const PoissonLevel& coarse,
                      CheckPartials partials) {
  const int gf = fine.shape.ghost, gc = coarse.shape.ghost;
  const int nx = coarse.shape.cells[0], ny = coarse.shape.cells[1];
  const auto w = fine.weights();
  const Real diagonal = w.diagonal(), inv_children = Real(1) / 8;
  const FineOffsets at{fine.shape.extent(0), fine.shape.extent(0) * fine.shape.extent(1)};
  const Real* __restrict__ xp = x.data();
  const Real* __restrict__ bp = b.data();
  const auto& n = fine.shape.cells;
  const auto& nc = coarse.shape.cells;
  // The partial sums, one a column, add in an order set by the column length alone, the same on every GPU.
  const int longest = coarse.shape.pair_planes;
  const int planes = grid::column_planes(nc[0], nc[1], nc[2], grid::resident_threads(), longest);  // in coarse planes
  // The pair loop over the fine x range shifted by one (so that each pair is the two x-children of one coarse cell,
  // local 2 m and 2 m + 1) and over the coarse y and z ranges: each thread marches one coarse column up z.
  // Four resident blocks per multiprocessor hold it to 64 registers: unbounded it takes more and runs slower, at five
  // it spills (tests/perf/RESULTS.md); the check's pass gains as much.
  grid::for_each_pair_column<4>(
      "poisson::restrict_residual_by_columns", {gf + 1, gc, gc}, {gf + 1 + n[0], gc + nc[1], gc + nc[2]}, longest,
      KOKKOS_LAMBDA(const grid::PairColumn& col) {
        const int i = col.i - 1, ci = gc + ((i - gf) >> 1), cj = col.j, j = gf + 2 * (cj - gc);
        const int column = i + at.row * j;
        int k = gf + 2 * (col.k0 - gc);
        Quad below = at.load(xp, column + at.plane * (k - 1)), here = at.load(xp, column + at.plane * k);
        ResidualSums share;  // the column's, over all its coarse cells
        for (int ck = col.k0; ck < col.k1; ++ck) {
          Real sum = 0;
          // The children's residuals in the order of restrict_residual: z, then y, then x.
          for (int c = 0; c < 2; ++c, ++k) {
            const int p = column + at.plane * k;
            const Quad above = at.load(xp, p + at.plane), rhs = at.load(bp, p);
            const Real west0 = xp[p - 1], east0 = xp[p + 2], west1 = xp[p + at.row - 1], east1 = xp[p + at.row + 2];
            const Real south0 = xp[p - at.row], south1 = xp[p - at.row + 1];
            const Real north0 = xp[p + 2 * at.row], north1 = xp[p + 2 * at.row + 1];
            const auto child = [&](Real rhs_value, Real centre, Real west, Real east, Real south, Real north, Real down,
                                   Real up) {
              const Real neighbours = w.x * (west + east) + w.y * (south + north) + w.z * (down + up);
              const Real res = rhs_value - (neighbours + diagonal * centre);
              sum += res;
              if (WithSums) {
                share.value[0] += res * res;
                share.value[1] += rhs_value * rhs_value;
                share.value[2] += centre;
              }
            };
            child(rhs.c00, here.c00, west0, here.c10, south0, here.c01, below.c00, above.c00);
            child(rhs.c10, here.c10, here.c00, east0, south1, here.c11, below.c10, above.c10);
            child(rhs.c01, here.c01, west1, here.c11, here.c00, north0, below.c01, above.c01);
            child(rhs.c11, here.c11, here.c01, east1, here.c10, north1, below.c11, above.c11);
            below = here;
            here = above;
          }
          if (StoresCoarse) coarse_b(ci, cj, ck) = sum * inv_children;
        }
        if (WithSums) partials((ci - gc) + nx * ((cj - gc) + ny * ((col.k0 - gc) / planes))) = share;
      });
}

}  // namespace

void restrict_residual_by_columns(Field coarse_b, Field x, Field b, const PoissonLevel& fine,
                                  const PoissonLevel& coarse, CheckPartials partials) {
  require(fits_restriction_columns(fine, {2, 2, 2}, {x, b}),
          "restrict_residual_by_columns: needs a 3D level coarsened by two along every axis, an odd ghost width, even "
          "cell counts and unpadded fields");
  if (partials.data() == nullptr) return restrict_columns<false, true>(coarse_b, x, b, fine, coarse, partials);
  require(static_cast<long long>(partials.extent(0)) >= restriction_column_count(coarse),
          "restrict_residual_by_columns: too few partial sums");
  if (coarse_b.data() == nullptr) return restrict_columns<true, false>(coarse_b, x, b, fine, coarse, partials);
  restrict_columns<true, true>(coarse_b, x, b, fine, coarse, partials);
}

long long restriction_column_count(const PoissonLevel& coarse) {
  const auto& nc = coarse.shape.cells;
  const int planes = grid::column_planes(nc[0], nc[1], nc[2], grid::resident_threads(), coarse.shape.pair_planes);
  return static_cast<long long>(nc[0]) * nc[1] * ((nc[2] + planes - 1) / planes);
}

}  // namespace eddy::solver
