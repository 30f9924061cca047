// The kernel timer sees every launch and deep copy while it runs, by label, and nothing before or after; launch graphs
// call their work directly while it runs, so the kernels they hold are seen.
#include "core/kernel_timer.hpp"

#include "core/error.hpp"
#include "core/types.hpp"
#include "device/launch_graph.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace {

using eddy::KernelTime;
using eddy::KernelTimer;
using Range = Kokkos::RangePolicy<eddy::ExecSpace>;

std::map<std::string, KernelTime> by_label(const KernelTimer& timer) {
  std::map<std::string, KernelTime> m;
  for (const auto& t : timer.times()) m[t.label] = t;
  return m;
}

// A kernel whose time grows with `n` (each point sums `inner` square roots).
void work(const char* label, const Kokkos::View<double*>& out, int inner) {
  Kokkos::parallel_for(
      label, Range(0, static_cast<int>(out.extent(0))), KOKKOS_LAMBDA(int i) {
        double s = 0;
        for (int q = 0; q < inner; ++q) s += Kokkos::sqrt(static_cast<double>(i + q));
        out(i) = s;
      });
}

double sum_of(const Kokkos::View<double*>& a) {
  double sum = 0;
  Kokkos::parallel_reduce(
      "test::sum", Range(0, static_cast<int>(a.extent(0))), KOKKOS_LAMBDA(int i, double& s) { s += a(i); }, sum);
  return sum;
}

TEST(KernelTimer, CountsEachLabelsLaunchesAndTimesThemAlone) {
  Kokkos::View<double*> a("kernel_timer::a", 1 << 14), b("kernel_timer::b", 1 << 14);
  work("before_the_timer", a, 1);
  Kokkos::Timer wall;
  std::map<std::string, KernelTime> seen;
  {
    const KernelTimer timer;
    for (int r = 0; r < 3; ++r) work("test::short", a, 1);
    for (int r = 0; r < 2; ++r) work("test::long", a, 2000);
    EXPECT_GT(sum_of(a), 0);
    Kokkos::deep_copy(b, a);
    seen = by_label(timer);
  }
  const double elapsed = wall.seconds();
  EXPECT_EQ(seen.count("before_the_timer"), 0u);
  ASSERT_EQ(seen.count("test::short"), 1u);
  ASSERT_EQ(seen.count("test::long"), 1u);
  ASSERT_EQ(seen.count("test::sum"), 1u);
  ASSERT_EQ(seen.count("deep_copy into kernel_timer::b"), 1u);
  EXPECT_EQ(seen["test::short"].launches, 3);
  EXPECT_EQ(seen["test::long"].launches, 2);
  EXPECT_EQ(seen["test::sum"].launches, 1);
  EXPECT_EQ(seen["deep_copy into kernel_timer::b"].launches, 1);
  // 2000 square roots a point against one: the long kernel takes far longer per launch.
  EXPECT_GT(seen["test::long"].seconds / 2, 5 * seen["test::short"].seconds / 3);
  double total = 0;
  for (const auto& [label, t] : seen) {
    EXPECT_GT(t.seconds, 0) << label;
    total += t.seconds;
  }
  EXPECT_LE(total, elapsed);
}

TEST(KernelTimer, OneTimerAtATimeAndAFreshStartEachTime) {
  Kokkos::View<double*> a("kernel_timer::c", 256);
  {
    const KernelTimer timer;
    EXPECT_THROW(KernelTimer{}, eddy::Error);
    work("test::first", a, 1);
  }
  work("test::between", a, 1);
  const KernelTimer timer;
  work("test::second", a, 1);
  const auto seen = by_label(timer);
  EXPECT_EQ(seen.count("test::first"), 0u);
  EXPECT_EQ(seen.count("test::between"), 0u);
  EXPECT_EQ(seen.count("test::second"), 1u);
}

TEST(KernelTimer, LaunchGraphsLaunchTheirKernelsWhileTimed) {
  Kokkos::View<double*> a("kernel_timer::d", 256);
  eddy::device::LaunchGraph graph(true);
  // Direct on the first call, recorded on the second (on CUDA), then replayed; a timed call launches the kernel.
  for (int r = 0; r < 3; ++r) graph.run(a.data(), nullptr, 0, [&] { work("test::in_graph", a, 1); });
  Kokkos::fence();
  const KernelTimer timer;
  graph.run(a.data(), nullptr, 0, [&] { work("test::in_graph", a, 1); });
  const auto seen = by_label(timer);
  ASSERT_EQ(seen.count("test::in_graph"), 1u);
  EXPECT_EQ(seen.at("test::in_graph").launches, 1);
}

}  // namespace
