#pragma once
// Loops over boxes of view indices with a chosen parallel policy.
#include "core/error.hpp"
#include "grid/fast_divisor.hpp"
#include "grid/index_ranges.hpp"

#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace eddy::grid {

using Policy2 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                      Kokkos::IndexType<int>, LightWeight>;

/// The flat span of a shape's owned cells: view points from the first to the last owned cell, x fastest. Points are
/// 32-bit on GPUs (a rank's block of 2^31 points would need hundreds of GB), where 64-bit divisions cost more than
/// the stencil they index; the divisions by row and plane are multiplies (grid/fast_divisor.hpp).
struct OwnedSpan {
  int first = 0, last = 0, plane = 1, row = 1, ghost = 0, nx = 1, ny = 1;
  FastDivisor per_plane, per_row;  // division by plane and by row

  /// Decodes point p of the span into view indices; false for a ghost point inside the span.
  KOKKOS_INLINE_FUNCTION bool owned(int p, int& i, int& j, int& k) const {
    k = per_plane.divide(p);
    const int rest = p - k * plane;
    j = per_row.divide(rest);
    i = rest - j * row;
    return i >= ghost && i < ghost + nx && j >= ghost && j < ghost + ny;
  }
};

/// The owned span of `s` (fields of that shape are unpadded, x fastest); the block must have fewer than 2^31 points.
inline OwnedSpan owned_span(const LocalShape& s) {
  const long long points = static_cast<long long>(s.extent(0)) * s.extent(1) * s.extent(2);
  require(points < std::numeric_limits<int>::max(),
          "a rank's block of " + std::to_string(points) + " points (ghosts included) is beyond 2^31: use more ranks");
  OwnedSpan span;
  span.ghost = s.ghost, span.nx = s.cells[0], span.ny = s.cells[1];
  span.row = s.extent(0);
  span.plane = s.extent(0) * s.extent(1);
  span.per_row = FastDivisor(span.row);
  span.per_plane = FastDivisor(span.plane);
  const int g = s.ghost;
  span.first = g + span.row * g + span.plane * g;
  span.last = g + s.cells[0] - 1 + span.row * (g + s.cells[1] - 1) + span.plane * (g + s.cells[2] - 1);
  return span;
}

/// Runs body(i, j, k) over the box [lo, hi) of view indices by rows: one (j, k) per iteration of a 2D policy, with the
/// row's x loop inside it, which the compiler vectorizes. The CPU form of the loops below: the residual ran faster this
/// way than over the 3D policy (`eddy bench stencil`, measured in tests/perf/RESULTS.md).
template <class Body>
void for_each_row(const char* label, Int3 lo, Int3 hi, const Body& body) {
  const int i0 = lo[0], i1 = hi[0];
  Kokkos::parallel_for(
      label, Policy2({lo[1], lo[2]}, {hi[1], hi[2]}), KOKKOS_LAMBDA(int j, int k) {
        for (int i = i0; i < i1; ++i) body(i, j, k);
      });
}

/// Runs body(i, j, k) on every owned cell of `s`. On GPUs one thread per point of the owned span, ghost points idle:
/// for 7-point stencils this came nearer a same-run triad's bandwidth than every 3D tiling (`eddy bench stencil`,
/// measured in tests/perf/RESULTS.md). On CPUs by rows (for_each_row).
template <class Body>
void for_each_owned_cell(const char* label, const LocalShape& s, const Body& body) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const OwnedSpan span = owned_span(s);
  Kokkos::parallel_for(
      label, Range(span.first, span.last + 1), KOKKOS_LAMBDA(int p) {
        int i, j, k;
        if (span.owned(p, i, j, k)) body(i, j, k);
      });
#else
  const int g = s.ghost;
  for_each_row(label, {g, g, g}, {g + s.cells[0], g + s.cells[1], g + s.cells[2]}, body);
#endif
}

/// Runs body(i, j, k) over the box [lo, hi) of view indices. On GPUs one thread per point of a 1D range decoded x
/// fastest with 32-bit arithmetic (fewer points than 2^31); on CPUs by rows (for_each_row).
template <class Body>
void for_each_box_point(const char* label, Int3 lo, Int3 hi, const Body& body) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const int nx = hi[0] - lo[0], ny = hi[1] - lo[1], nz = hi[2] - lo[2];
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  const int x0 = lo[0], y0 = lo[1], z0 = lo[2];
  const FastDivisor per_row(nx), per_plane(ny);
  Kokkos::parallel_for(
      label, Range(0, nx * ny * nz), KOKKOS_LAMBDA(int p) {
        const int row = per_row.divide(p), plane = per_plane.divide(row);
        body(x0 + p - row * nx, y0 + row - plane * ny, z0 + plane);
      });
#else
  for_each_row(label, lo, hi, body);
#endif
}

/// The range of a reduction on GPUs. Kokkos launches as many blocks of 256 as fill every multiprocessor at 2048
/// threads and gives each an equal share of the work; a kernel needing more than 32 registers per thread fits fewer
/// blocks, and the rest run as a second wave at a fraction of the occupancy, which slowed a residual norm well below a
/// same-run triad (measured in tests/perf/RESULTS.md). The launch bounds hold the kernels to 32 registers so that
/// every block is resident at once.
using ReduceRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<256, 8>>;

/// Reduces body(i, j, k, value) over the owned cells of `s` into `result` (a Kokkos reducer), as for_each_owned_cell
/// (on CPUs by rows).
template <class Body, class Result>
void reduce_over_owned_cells(const char* label, const LocalShape& s, const Body& body, Result&& result) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const OwnedSpan span = owned_span(s);
  using Value = typename std::decay_t<Result>::value_type;
  Kokkos::parallel_reduce(
      label, ReduceRange(span.first, span.last + 1),
      KOKKOS_LAMBDA(int p, Value& value) {
        int i, j, k;
        if (span.owned(p, i, j, k)) body(i, j, k, value);
      },
      std::forward<Result>(result));
#else
  const int g = s.ghost, i1 = g + s.cells[0];
  using Value = typename std::decay_t<Result>::value_type;
  Kokkos::parallel_reduce(
      label, Policy2({g, g}, {g + s.cells[1], g + s.cells[2]}),
      KOKKOS_LAMBDA(int j, int k, Value& value) {
        for (int i = g; i < i1; ++i) body(i, j, k, value);
      },
      std::forward<Result>(result));
#endif
}

}  // namespace eddy::grid
