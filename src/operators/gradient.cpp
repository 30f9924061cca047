#include "operators/gradient.hpp"

#include "operators/difference.hpp"

namespace eddy::operators {

void subtract_pressure_gradient(const fields::FlowState& state, const Field& phi, Real factor,
                                const StaggeredGrid& grid, const CorrectedBoundaries& corrected) {
  const Field u = state.u, v = state.v, w = state.w, p = phi;
  const InverseSpacing inv = grid.inv;
  Kokkos::parallel_for(
      "projection::correct_u", grid.faces(0, corrected[0][0], corrected[0][1]),
      KOKKOS_LAMBDA(int i, int j, int k) { u(i, j, k) -= factor * ddx_center_to_face(p, i, j, k, inv.x); });
  Kokkos::parallel_for(
      "projection::correct_v", grid.faces(1, corrected[1][0], corrected[1][1]),
      KOKKOS_LAMBDA(int i, int j, int k) { v(i, j, k) -= factor * ddy_center_to_face(p, i, j, k, inv.y); });
  if (grid.three_d) {
    Kokkos::parallel_for(
        "projection::correct_w", grid.faces(2, corrected[2][0], corrected[2][1]),
        KOKKOS_LAMBDA(int i, int j, int k) { w(i, j, k) -= factor * ddz_center_to_face(p, i, j, k, inv.z); });
  }
}

}  // namespace eddy::operators
