#include "core/error.hpp"
#include "grid/cell_loops.hpp"
#include "solver/laplacian.hpp"

#include <cstdint>

namespace eddy::solver {
namespace {

bool aligned_for_pairs(const Real* data) { return reinterpret_cast<std::uintptr_t>(data) % sizeof(RealPair) == 0; }

}  // namespace

bool fits_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
  if (shape.extent(0) % 2 != 0) return false;
  for (const Field& f : fields) {
    if (f.data() != nullptr && !aligned_for_pairs(f.data())) return false;
  }
  return true;
}

bool use_cell_pairs(const fields::LocalShape& shape, std::initializer_list<Field> fields) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return fits_cell_pairs(shape, fields);
#else
  (void)shape;
  (void)fields;
  return false;
#endif
}

void laplacian_by_pairs(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                        const StencilWeights& w) {
  require(fits_cell_pairs(shape, {out_field, phi_field, rhs_field}),
          "laplacian_by_pairs: rows of odd length or fields not aligned to pairs of values");
  const auto span = grid::owned_span(shape);
  const int sy = span.row, sz = span.plane, lo = span.ghost, hi_x = span.ghost + span.nx, hi_y = span.ghost + span.ny;
  const bool has_z = w.z != 0;
  const Real* __restrict__ phi = phi_field.data();
  const Real* __restrict__ rhs = rhs_field.data();
  Real* __restrict__ out = out_field.data();
  Kokkos::parallel_for(
      "poisson::laplacian_by_pairs", Range(span.first / 2, span.last / 2 + 1), KOKKOS_LAMBDA(int q) {
        const int p = 2 * q;
        int i, j, k;
        span.owned(p, i, j, k);
        if (j < lo || j >= hi_y) return;
        const bool even_owned = i >= lo && i < hi_x, odd_owned = i + 1 >= lo && i + 1 < hi_x;
        const auto pair_at = [&](int o) { return *reinterpret_cast<const RealPair*>(phi + o); };
        const RealPair c = pair_at(p), s = pair_at(p - sy), n = pair_at(p + sy);
        const Real west = phi[p - 1], east = phi[p + 2];
        RealPair r;
        r.even = w.x * (west + c.odd) + w.y * (s.even + n.even) + w.diagonal() * c.even;
        r.odd = w.x * (c.even + east) + w.y * (s.odd + n.odd) + w.diagonal() * c.odd;
        if (has_z) {
          const RealPair d = pair_at(p - sz), u = pair_at(p + sz);
          r.even += w.z * (d.even + u.even);
          r.odd += w.z * (d.odd + u.odd);
        }
        if (rhs != nullptr) {
          const RealPair b = *reinterpret_cast<const RealPair*>(rhs + p);
          r.even = b.even - r.even;
          r.odd = b.odd - r.odd;
        }
        if (even_owned && odd_owned) {
          *reinterpret_cast<RealPair*>(out + p) = r;
        } else if (even_owned) {
          out[p] = r.even;
        } else if (odd_owned) {
          out[p + 1] = r.odd;
        }
      });
}

}  // namespace eddy::solver
