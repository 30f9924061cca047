#pragma once
// Division of non-negative ints by a divisor fixed before a kernel launches, as one wide multiply and a shift. A GPU
// has no integer divider: n / d with d known only at run time compiles to about twenty instructions, and the loops
// over a flat span of view points decode every point with two of them (grid/cell_loops.hpp). With
// l = ceil(log2 d) and m = floor(2^(31 + l) / d) + 1, floor(n / d) = floor(n m / 2^(31 + l)) for every 0 <= n < 2^31
// (Granlund and Montgomery, "Division by invariant integers using multiplication", PLDI 1994, theorem 4.2).
#include "core/error.hpp"
#include "core/types.hpp"

#include <cstdint>
#include <string>

namespace eddy::grid {

class FastDivisor {
 public:
  FastDivisor() = default;
  /// Prepares division by `divisor` (>= 1).
  explicit FastDivisor(int divisor) {
    require(divisor >= 1, "FastDivisor: divisor " + std::to_string(divisor) + " is not positive");
    int l = 0;
    while ((std::int64_t{1} << l) < divisor) ++l;
    shift_ = 31 + l;
    multiplier_ = ((std::uint64_t{1} << shift_) / static_cast<std::uint64_t>(divisor)) + 1;
  }
  /// floor(n / divisor) for 0 <= n < 2^31.
  KOKKOS_INLINE_FUNCTION int divide(int n) const {
    return static_cast<int>((static_cast<std::uint64_t>(n) * multiplier_) >> shift_);
  }

 private:
  std::uint64_t multiplier_ = std::uint64_t{1} << 31;  // division by one
  int shift_ = 31;
};

}  // namespace eddy::grid
