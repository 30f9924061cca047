#include "operators/flow_diagnostics.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "operators/diagnostic_sums.hpp"
#include "operators/divergence_stencil.hpp"
#include "operators/stretched_stencils.hpp"

namespace eddy::operators {
namespace {

/// local_flow_diagnostics_by_pairs with the w terms (3D) or without (2D).
template <bool HasZ>
DiagnosticSums diagnostics_by_pairs(const fields::FlowState& state, const StaggeredGrid& grid) {
  const fields::LocalShape& s = grid.shape;
  const int g = s.ghost, sy = s.extent(0), sz = sy * s.extent(1);
  const Real* __restrict__ u = state.u.data();
  const Real* __restrict__ v = state.v.data();
  const Real* __restrict__ w = state.w.data();
  InverseSpacing inv = grid.inv;
  if (!HasZ) inv.z = 0;
  DiagnosticSums sums;
  const Int3 lo{g, g, g}, hi{g + s.cells[0], g + s.cells[1], g + s.cells[2]};
  const auto march = KOKKOS_LAMBDA(const grid::PairColumn& c, DiagnosticSums& local) {
    const int column = c.i + sy * c.j;
    RealPair w_low{};  // the z-faces below the pair's cells
    if (HasZ) w_low = grid::load_pair(w, column + sz * (c.k0 - 1));
    for (int k = c.k0; k < c.k1; ++k) {
      const int p = column + sz * k;
      const RealPair u_high = grid::load_pair(u, p), v_high = grid::load_pair(v, p), v_low = grid::load_pair(v, p - sy);
      const Real u_low = u[p - 1];
      RealPair w_high{};
      if (HasZ) w_high = grid::load_pair(w, p);
      if (c.first_in) add_cell(local, u_low, u_high.even, v_low.even, v_high.even, w_low.even, w_high.even, inv);
      if (c.second_in) add_cell(local, u_high.even, u_high.odd, v_low.odd, v_high.odd, w_low.odd, w_high.odd, inv);
      w_low = w_high;
    }
  };
  // The tiles reduced in order (grid::reduce_over_pair_columns) came closer to a stream of the three components than a
  // reduction over a range policy (measured in tests/perf/RESULTS.md).
  grid::reduce_over_pair_columns("flow::diagnostics_by_pairs", lo, hi, grid::reduction_planes(s.pair_planes),
                                 grid.reduction_scratch, march, DiagnosticReducer(sums));
  return sums;
}

// The diagnostics of a stretched grid: each face's |u|^2 weighted by the volume around it (relative to the mean cell
// volume, which local_diagnostics_of multiplies by) and the rate by the cell's own widths.
LocalDiagnostics stretched_diagnostics(const fields::FlowState& state, const StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const grid::GridMetric m = grid.metric;
  const bool three_d = grid.three_d;
  const Real inv_mean_volume = 1 / grid.cell_volume();
  DiagnosticSums sums;
  grid::reduce_over_owned_cells(
      "flow::diagnostics_stretched", grid.shape,
      KOKKOS_LAMBDA(int i, int j, int k, DiagnosticSums& local) {
        const Real dz = three_d ? m.z.width(k) : Real(1);
        Real energy = u(i, j, k) * u(i, j, k) / m.x.inv_gap(i) * m.y.width(j) * dz +
                      v(i, j, k) * v(i, j, k) * m.x.width(i) / m.y.inv_gap(j) * dz;
        Real cell_rate = Kokkos::fmax(Kokkos::fabs(u(i - 1, j, k)), Kokkos::fabs(u(i, j, k))) * m.x.inv_width(i) +
                         Kokkos::fmax(Kokkos::fabs(v(i, j - 1, k)), Kokkos::fabs(v(i, j, k))) * m.y.inv_width(j);
        if (three_d) {
          energy += w(i, j, k) * w(i, j, k) * m.x.width(i) * m.y.width(j) / m.z.inv_gap(k);
          cell_rate += Kokkos::fmax(Kokkos::fabs(w(i, j, k - 1)), Kokkos::fabs(w(i, j, k))) * m.z.inv_width(k);
        }
        local.energy += energy * inv_mean_volume;
        keep_larger(local.divergence, Kokkos::fabs(stretched_divergence(u, v, w, i, j, k, m, three_d)));
        keep_larger(local.rate, cell_rate);
      },
      DiagnosticReducer(sums));
  return local_diagnostics_of(sums, grid);
}

}  // namespace

LocalDiagnostics local_flow_diagnostics_by_pairs(const fields::FlowState& state, const StaggeredGrid& grid) {
  require(grid::fits_cell_pairs(grid.shape, {state.u, state.v, state.w}),
          "local_flow_diagnostics_by_pairs: rows of odd length or fields not aligned to pairs of values");
  return local_diagnostics_of(
      grid.three_d ? diagnostics_by_pairs<true>(state, grid) : diagnostics_by_pairs<false>(state, grid), grid);
}

LocalDiagnostics local_flow_diagnostics(const fields::FlowState& state, const StaggeredGrid& grid) {
  if (grid.stretched) return stretched_diagnostics(state, grid);
  if (grid::use_cell_pairs(grid.shape, {state.u, state.v, state.w})) {
    return local_flow_diagnostics_by_pairs(state, grid);
  }
  return local_flow_diagnostics_by_cells(state, grid);
}

LocalDiagnostics local_flow_diagnostics_by_cells(const fields::FlowState& state, const StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  DiagnosticSums sums;
  grid::reduce_over_owned_cells(
      "flow::diagnostics", grid.shape,
      KOKKOS_LAMBDA(int i, int j, int k, DiagnosticSums& local) {
        Real sq = u(i, j, k) * u(i, j, k) + v(i, j, k) * v(i, j, k);
        Real cell_rate = Kokkos::fmax(Kokkos::fabs(u(i - 1, j, k)), Kokkos::fabs(u(i, j, k))) * inv.x +
                         Kokkos::fmax(Kokkos::fabs(v(i, j - 1, k)), Kokkos::fabs(v(i, j, k))) * inv.y;
        if (three_d) {
          sq += w(i, j, k) * w(i, j, k);
          cell_rate += Kokkos::fmax(Kokkos::fabs(w(i, j, k - 1)), Kokkos::fabs(w(i, j, k))) * inv.z;
        }
        local.energy += sq;
        keep_larger(local.divergence, Kokkos::fabs(divergence_at_center(u, v, w, i, j, k, inv, three_d)));
        keep_larger(local.rate, cell_rate);
      },
      DiagnosticReducer(sums));
  return local_diagnostics_of(sums, grid);
}

}  // namespace eddy::operators
