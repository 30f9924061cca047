// Division by a divisor fixed before the loop (grid/fast_divisor.hpp) equals integer division for every numerator
// below 2^31: all numerators up to 2^20, then a stride through the rest of the range and the multiples of the divisor
// and their neighbours near 2^31, for small divisors, the row and plane lengths of real blocks, powers of two and the
// numbers beside them, and the largest int.
#include "grid/fast_divisor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

void expect_divides(int d) {
  const eddy::grid::FastDivisor divisor(d);
  const std::int64_t top = std::numeric_limits<int>::max();
  for (std::int64_t n = 0; n < (1 << 20); ++n) {
    ASSERT_EQ(divisor.divide(static_cast<int>(n)), n / d) << "n " << n << " d " << d;
  }
  for (std::int64_t n = 1 << 20; n <= top; n += 7919) {
    ASSERT_EQ(divisor.divide(static_cast<int>(n)), n / d) << "n " << n << " d " << d;
  }
  for (std::int64_t q = top / d - 2; q <= top / d; ++q) {
    for (std::int64_t n = q * d - 1; n <= q * d + 1 && n <= top; ++n) {
      if (n < 0) continue;
      ASSERT_EQ(divisor.divide(static_cast<int>(n)), n / d) << "n " << n << " d " << d;
    }
  }
  ASSERT_EQ(divisor.divide(static_cast<int>(top)), top / d) << "d " << d;
}

}  // namespace

TEST(FastDivisor, EqualsIntegerDivisionBelowTwoToThe31) {
  std::vector<int> divisors{1, 2, 3, 5, 7, 10, 66, 130, 258, 514, 1026, 258 * 258, 514 * 514, 1000003};
  for (int l = 2; l <= 30; l += 4) {
    divisors.push_back((1 << l) - 1);
    divisors.push_back(1 << l);
    divisors.push_back((1 << l) + 1);
  }
  divisors.push_back(std::numeric_limits<int>::max());
  for (int d : divisors) expect_divides(d);
}

TEST(FastDivisor, RefusesANonPositiveDivisor) {
  EXPECT_THROW(eddy::grid::FastDivisor(0), eddy::Error);
  EXPECT_THROW(eddy::grid::FastDivisor(-4), eddy::Error);
}
