#include "fields/shifted_copy.hpp"

#include "core/error.hpp"

#include <cstdint>

namespace eddy::fields {
namespace {

using SpanRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>, LightWeight>;

bool aligned_to_pairs(const Real* p) { return reinterpret_cast<std::uintptr_t>(p) % sizeof(RealPair) == 0; }

}  // namespace

// A pair of values per thread (one 16-byte load and store) where both pointers are aligned to pairs: the copy runs
// faster by pairs than by single values (measured in tests/perf/RESULTS.md). An odd last value goes alone.
void shifted_copy(const char* label, Real* to, const Real* from, long long values, Real shift) {
  if (!aligned_to_pairs(to) || !aligned_to_pairs(from)) {
    Kokkos::parallel_for(
        label, SpanRange(0, values), KOKKOS_LAMBDA(long long n) { to[n] = from[n] - shift; });
    return;
  }
  Kokkos::parallel_for(
      label, SpanRange(0, (values + 1) / 2), KOKKOS_LAMBDA(long long q) {
        const long long n = 2 * q;
        if (n + 1 < values) {
          const RealPair v = *reinterpret_cast<const RealPair*>(from + n);
          *reinterpret_cast<RealPair*>(to + n) = RealPair{v.even - shift, v.odd - shift};
        } else {
          to[n] = from[n] - shift;
        }
      });
}

void shifted_copy(const char* label, const Field& to, const Field& from, Real shift) {
  require(to.span_is_contiguous() && from.span_is_contiguous(), std::string(label) + ": the fields must be contiguous");
  require(to.span() == from.span() && to.layout() == from.layout(),
          std::string(label) + ": the fields differ in shape");
  shifted_copy(label, to.data(), from.data(), static_cast<long long>(to.span()), shift);
}

}  // namespace eddy::fields
