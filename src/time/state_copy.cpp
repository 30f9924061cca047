#include "time/state_copy.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::time {

void copy_velocity(const fields::FlowState& from, const fields::FlowState& to) {
  Kokkos::deep_copy(ExecSpace(), to.u, from.u);
  Kokkos::deep_copy(ExecSpace(), to.v, from.v);
  Kokkos::deep_copy(ExecSpace(), to.w, from.w);
}

void copy_owned_velocity(const fields::FlowState& from, const fields::FlowState& to) {
  const auto fu = from.u, fv = from.v, fw = from.w, tu = to.u, tv = to.v, tw = to.w;
  Kokkos::parallel_for(
      "time::copy_owned_velocity", grid::owned_cells(from.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        tu(i, j, k) = fu(i, j, k);
        tv(i, j, k) = fv(i, j, k);
        tw(i, j, k) = fw(i, j, k);
      });
}

}  // namespace eddy::time
