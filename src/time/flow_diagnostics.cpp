#include "time/flow_diagnostics.hpp"

#include "grid/cell_loops.hpp"
#include "operators/divergence_stencil.hpp"

namespace eddy::time {
namespace {

struct DiagnosticSums {
  Real energy = 0;      // sum of |u|^2 over the faces
  Real divergence = 0;  // max |div u|
  Real rate = 0;        // max |u|/dx + |v|/dy + |w|/dz
};

// Raises `largest` to `value`; a NaN on either side wins, so a blown-up field cannot hide behind the maximum.
KOKKOS_INLINE_FUNCTION void keep_larger(Real& largest, Real value) {
  if (largest == largest && !(value <= largest)) largest = value;
}

// A Kokkos reducer for DiagnosticSums: one pass sums the energy and takes both maxima.
struct DiagnosticReducer {
  using reducer = DiagnosticReducer;
  using value_type = DiagnosticSums;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  result_view_type result;

  KOKKOS_INLINE_FUNCTION explicit DiagnosticReducer(value_type& value) : result(&value) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& into, const value_type& from) const {
    into.energy += from.energy;
    keep_larger(into.divergence, from.divergence);
    keep_larger(into.rate, from.rate);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& value) const { value = value_type{}; }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return result; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

}  // namespace

LocalDiagnostics local_flow_diagnostics(const fields::FlowState& state, const operators::StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const operators::InverseSpacing inv = grid.inv;
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
        keep_larger(local.divergence, Kokkos::fabs(operators::divergence_at_center(u, v, w, i, j, k, inv, three_d)));
        keep_larger(local.rate, cell_rate);
      },
      DiagnosticReducer(sums));
  LocalDiagnostics result;
  result.kinetic_energy = 0.5 * sums.energy * grid.cell_volume();
  result.max_divergence = sums.divergence;
  result.velocity_rate = sums.rate;
  return result;
}

}  // namespace eddy::time
