// The span copy less a constant: every value of the span shifted exactly once, whether the span has an odd last value,
// the copy is in place, or the pointers are not aligned to pairs (the one-value-per-thread path).
#include "core/error.hpp"
#include "fields/field.hpp"
#include "fields/shifted_copy.hpp"

#include <gtest/gtest.h>

namespace {

using eddy::Buffer;
using eddy::Real;

// Fills `b` with 0.5 n + 3 at index n, on the host.
Buffer ramp(long long values) {
  Buffer b("ramp", values);
  auto host = Kokkos::create_mirror_view(b);
  for (long long n = 0; n < values; ++n) host(n) = 0.5 * n + 3;
  Kokkos::deep_copy(b, host);
  return b;
}

// Expects `b` to hold the ramp less `shift` on [first, first + values) and the plain ramp elsewhere.
void expect_shifted_ramp(const Buffer& b, long long first, long long values, Real shift) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  for (long long n = 0; n < static_cast<long long>(b.extent(0)); ++n) {
    const bool inside = n >= first && n < first + values;
    ASSERT_EQ(host(n), 0.5 * n + 3 - (inside ? shift : 0)) << "at " << n << " of " << b.extent(0);
  }
}

}  // namespace

TEST(ShiftedCopy, ShiftsEveryValueOfOddAndEvenSpansInPlace) {
  for (long long values : {1LL, 2LL, 7LL, 1000LL, 1001LL}) {
    Buffer b = ramp(values);
    eddy::fields::shifted_copy("test::in_place", b.data(), b.data(), values, 1.25);
    expect_shifted_ramp(b, 0, values, 1.25);
  }
}

TEST(ShiftedCopy, CopiesBetweenBuffersAlignedAndNotAlignedToPairs) {
  const long long values = 999;
  for (long long to_offset : {0LL, 1LL}) {
    for (long long from_offset : {0LL, 1LL}) {
      Buffer from = ramp(values + 2), to = ramp(values + 2);
      Kokkos::deep_copy(to, 0.0);
      eddy::fields::shifted_copy("test::copy", to.data() + to_offset, from.data() + from_offset, values, -2.0);
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), to);
      for (long long n = 0; n < values + 2; ++n) {
        const bool inside = n >= to_offset && n < to_offset + values;
        const Real expected = inside ? 0.5 * (n - to_offset + from_offset) + 3 + 2.0 : 0.0;
        ASSERT_EQ(host(n), expected) << "at " << n << ", offsets " << to_offset << " " << from_offset;
      }
    }
  }
}

TEST(ShiftedCopy, FieldsOfOneShapeCopyWholeSpansAndOthersAreRefused) {
  const eddy::fields::LocalShape shape{{9, 7, 5}, 1};  // 11 x 9 x 7 points: an odd span
  auto from = eddy::fields::make_field("from", shape), to = eddy::fields::make_field("to", shape);
  Kokkos::deep_copy(from, 4.0);
  eddy::fields::shifted_copy("test::fields", to, from, 1.5);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), to);
  for (std::size_t n = 0; n < host.span(); ++n) ASSERT_EQ(host.data()[n], 2.5) << "at " << n;
  auto other = eddy::fields::make_field("other", {{9, 7, 4}, 1});
  EXPECT_THROW(eddy::fields::shifted_copy("test::fields", other, from, 1.5), eddy::Error);
}
