#include "time/flow_diagnostics.hpp"

#include "operators/divergence_stencil.hpp"

namespace eddy::time {

LocalDiagnostics local_flow_diagnostics(const fields::FlowState& state, const operators::StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const operators::InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  LocalDiagnostics result;
  Real energy = 0, divergence = 0, rate = 0;
  Kokkos::parallel_reduce(
      "flow::diagnostics", grid::owned_cells(grid.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& energy_sum, Real& divergence_max, Real& rate_max) {
        Real sq = u(i, j, k) * u(i, j, k) + v(i, j, k) * v(i, j, k);
        Real cell_rate = Kokkos::fmax(Kokkos::fabs(u(i - 1, j, k)), Kokkos::fabs(u(i, j, k))) * inv.x +
                         Kokkos::fmax(Kokkos::fabs(v(i, j - 1, k)), Kokkos::fabs(v(i, j, k))) * inv.y;
        if (three_d) {
          sq += w(i, j, k) * w(i, j, k);
          cell_rate += Kokkos::fmax(Kokkos::fabs(w(i, j, k - 1)), Kokkos::fabs(w(i, j, k))) * inv.z;
        }
        energy_sum += sq;
        const Real d = Kokkos::fabs(operators::divergence_at_center(u, v, w, i, j, k, inv, three_d));
        // Written so that a NaN propagates into the maximum instead of being dropped by the comparison.
        if (!(d <= divergence_max)) divergence_max = d;
        if (!(cell_rate <= rate_max)) rate_max = cell_rate;
      },
      Kokkos::Sum<Real>(energy), Kokkos::Max<Real>(divergence), Kokkos::Max<Real>(rate));
  result.kinetic_energy = 0.5 * energy * grid.cell_volume();
  result.max_divergence = divergence;
  result.velocity_rate = rate;
  return result;
}

}  // namespace eddy::time
