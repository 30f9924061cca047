#include "solver/level_sums.hpp"

#include "fields/shifted_copy.hpp"
#include "grid/cell_loops.hpp"
#include "solver/communication_scope.hpp"

namespace eddy::solver {

void reduce_sums(Buffer sums, int n, const PoissonLevel& level, const parallel::Reducer& reducer) {
  CommunicationScope scope(level.timers, Phase::poisson_reduction, reducer.blocks_host());
  reducer.allreduce(Kokkos::subview(sums, Kokkos::make_pair(0, n)), parallel::ReduceOp::sum);
}

Real global_sum(Field f, const PoissonLevel& level, const parallel::Reducer& reducer) {
  Real local = 0;
  grid::reduce_over_owned_cells(
      "poisson::sum", level.shape, KOKKOS_LAMBDA(int i, int j, int k, Real& sum) { sum += f(i, j, k); },
      Kokkos::Sum<Real>(local));
  // The local reduction has already waited for the device.
  CommunicationScope scope(level.timers, Phase::poisson_reduction, true);
  return reducer.sum(local);
}

void subtract_constant(Field f, Real value) { fields::shifted_copy("poisson::subtract_constant", f, f, value); }

}  // namespace eddy::solver
