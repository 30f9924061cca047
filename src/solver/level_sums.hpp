#pragma once
// Sums over the owned cells of a level (norms, dot products, the convergence check's sums). They stay in device
// Buffers, so that the scalars feeding later kernels never make a round trip through the host: with NCCL an
// iteration never waits on it.
#include "parallel/reducer.hpp"
#include "solver/poisson_level.hpp"

#include <array>

namespace eddy::solver {

/// N sums carried through one parallel_reduce.
template <int N>
struct Sums {
  Real value[N];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (int n = 0; n < N; ++n) value[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& other) {
    for (int n = 0; n < N; ++n) value[n] += other.value[n];
    return *this;
  }
};

}  // namespace eddy::solver

namespace Kokkos {
template <int N>
struct reduction_identity<eddy::solver::Sums<N>> {
  KOKKOS_FORCEINLINE_FUNCTION static eddy::solver::Sums<N> sum() { return eddy::solver::Sums<N>(); }
};
}  // namespace Kokkos

namespace eddy::solver {

/// The sums a stationary solver checks convergence with: {|b - L(x)|^2, |b|^2, sum of x}.
using ResidualSums = Sums<3>;

/// A reducer that leaves N sums in the first entries of a device Buffer (no host wait on GPUs).
template <int N>
Kokkos::Sum<Sums<N>, MemSpace> sums_into(Buffer values) {
  using SumsView = Kokkos::View<Sums<N>, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return Kokkos::Sum<Sums<N>, MemSpace>(SumsView(reinterpret_cast<Sums<N>*>(values.data())));
}

/// Copies the first N entries of a device Buffer to the host (waits for the device).
template <int N>
std::array<Real, N> read_sums(Buffer values) {
  std::array<Real, N> host{};
  Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> out(host.data(), N);
  Kokkos::deep_copy(out, Kokkos::subview(values, Kokkos::make_pair(0, N)));
  return host;
}

/// Sums the first `n` device values of `sums` over all ranks in place, charged to the solver's reductions.
void reduce_sums(Buffer sums, int n, const PoissonLevel& level, const parallel::Reducer& reducer);

/// Sum of `f` over the owned cells of all ranks (host result).
Real global_sum(Field f, const PoissonLevel& level, const parallel::Reducer& reducer);

/// Subtracts `value` from every point of `f`, ghosts included (removes the mean of a singular problem's data).
void subtract_constant(Field f, Real value);

}  // namespace eddy::solver
