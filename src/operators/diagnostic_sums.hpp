#pragma once
// What the kernels that compute a step's flow diagnostics accumulate, cell by cell, and the Kokkos reducer that
// combines it: shared by the diagnostics' own pass and the correction that computes them as it writes the velocity.
#include "operators/flow_diagnostics.hpp"
#include "operators/staggered_grid.hpp"

namespace eddy::operators {

/// A rank's diagnostics as the kernels accumulate them.
struct DiagnosticSums {
  Real energy = 0;      ///< sum of |u|^2 over the faces
  Real divergence = 0;  ///< max |div u|
  Real rate = 0;        ///< max |u|/dx + |v|/dy + |w|/dz
};

/// Raises `largest` to `value`; a NaN on either side wins, so a blown-up field cannot hide behind the maximum.
KOKKOS_INLINE_FUNCTION void keep_larger(Real& largest, Real value) {
  if (largest == largest && !(value <= largest)) largest = value;
}

/// A Kokkos reducer for DiagnosticSums: one pass sums the energy and takes both maxima.
struct DiagnosticReducer {
  using reducer = DiagnosticReducer;
  using value_type = DiagnosticSums;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  result_view_type result;

  /// Reduces into `value`.
  KOKKOS_INLINE_FUNCTION explicit DiagnosticReducer(value_type& value) : result(&value) {}
  /// Adds `from` into `into`.
  KOKKOS_INLINE_FUNCTION void join(value_type& into, const value_type& from) const {
    into.energy += from.energy;
    keep_larger(into.divergence, from.divergence);
    keep_larger(into.rate, from.rate);
  }
  /// The empty sums.
  KOKKOS_INLINE_FUNCTION void init(value_type& value) const { value = value_type{}; }
  /// Where the result lands.
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return result; }
  /// The value reduced into.
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *result.data(); }
  /// The result is one value.
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

/// Adds the contribution of one cell from its low and high faces along each axis.
KOKKOS_INLINE_FUNCTION void add_cell(DiagnosticSums& local, Real u_low, Real u_high, Real v_low, Real v_high,
                                     Real w_low, Real w_high, const InverseSpacing& inv) {
  local.energy += u_high * u_high + v_high * v_high + w_high * w_high;
  keep_larger(local.divergence,
              Kokkos::fabs((u_high - u_low) * inv.x + (v_high - v_low) * inv.y + (w_high - w_low) * inv.z));
  keep_larger(local.rate, Kokkos::fmax(Kokkos::fabs(u_low), Kokkos::fabs(u_high)) * inv.x +
                              Kokkos::fmax(Kokkos::fabs(v_low), Kokkos::fabs(v_high)) * inv.y +
                              Kokkos::fmax(Kokkos::fabs(w_low), Kokkos::fabs(w_high)) * inv.z);
}

/// The rank's diagnostics from the sums of its cells.
inline LocalDiagnostics local_diagnostics_of(const DiagnosticSums& sums, const StaggeredGrid& grid) {
  LocalDiagnostics result;
  result.kinetic_energy = 0.5 * sums.energy * grid.cell_volume();
  result.max_divergence = sums.divergence;
  result.velocity_rate = sums.rate;
  return result;
}

}  // namespace eddy::operators
