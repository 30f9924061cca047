// Global reductions of host values and of device buffers (several values fused in one call) against the serial
// result computed from every rank's known contribution, and gathers of device buffers in rank order; NCCL and MPI
// compared where both exist.
#include "core/error.hpp"
#include "device/launch_graph.hpp"
#include "parallel/reducer.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using eddy::Real;
using eddy::config::CommBackend;
using eddy::parallel::ReduceOp;

namespace {

// Rank r's contribution to slot i: distinct per rank and slot, exact in binary, negative for odd slots.
Real contribution(int rank, int slot) { return (rank + 1) * (slot + 1) * (slot % 2 ? -0.75 : 1.25) + 0.5 * (rank % 3); }

Real serial(int ranks, int slot, ReduceOp op) {
  Real result = contribution(0, slot);
  for (int r = 1; r < ranks; ++r) {
    const Real v = contribution(r, slot);
    result = op == ReduceOp::sum ? result + v : op == ReduceOp::max ? std::max(result, v) : std::min(result, v);
  }
  return result;
}

// Device kernels live outside the test bodies (CUDA lambdas cannot sit in GoogleTest's private TestBody).
void fill_contributions(eddy::Buffer values, int r) {
  Kokkos::parallel_for(
      "test::fill_contributions", Kokkos::RangePolicy<eddy::ExecSpace>(0, values.extent(0)),
      KOKKOS_LAMBDA(int i) { values(i) = (r + 1) * (i + 1) * (i % 2 ? -0.75 : 1.25) + 0.5 * (r % 3); });
}

void add_one(eddy::Buffer value) {
  Kokkos::parallel_for(
      "test::add_one", Kokkos::RangePolicy<eddy::ExecSpace>(0, 1), KOKKOS_LAMBDA(int) { value(0) += 1.0; });
}

std::vector<CommBackend> backends() {
  std::vector<CommBackend> list{CommBackend::mpi};
  if (eddy::parallel::Context::nccl_available()) list.push_back(CommBackend::nccl);
  return list;
}

}  // namespace

TEST(Reducer, HostValuesMatchSerialResult) {
  eddy::parallel::Context context;
  const int r = context.rank(), n = context.size();
  for (auto backend : backends()) {
    eddy::parallel::Reducer reduce(context, eddy::parallel::choose_reduction_transport(backend));
    EXPECT_EQ(reduce.sum(contribution(r, 0)), serial(n, 0, ReduceOp::sum));
    EXPECT_EQ(reduce.max(contribution(r, 1)), serial(n, 1, ReduceOp::max));
    EXPECT_EQ(reduce.min(contribution(r, 2)), serial(n, 2, ReduceOp::min));
    for (auto op : {ReduceOp::sum, ReduceOp::max, ReduceOp::min}) {
      const auto fused =
          reduce.allreduce(std::array<Real, 3>{contribution(r, 0), contribution(r, 1), contribution(r, 2)}, op);
      for (int i = 0; i < 3; ++i) EXPECT_EQ(fused[i], serial(n, i, op));
    }
  }
}

TEST(Reducer, DeviceBuffersMatchSerialResult) {
  eddy::parallel::Context context;
  const int r = context.rank(), n = context.size();
  constexpr int slots = 5;
  for (auto backend : backends()) {
    eddy::parallel::Reducer reduce(context, eddy::parallel::choose_reduction_transport(backend));
    for (auto op : {ReduceOp::sum, ReduceOp::max, ReduceOp::min}) {
      eddy::Buffer values("values", slots);
      fill_contributions(values, r);  // a kernel: the reduction must be ordered after it
      reduce.allreduce(values, op);
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
      for (int i = 0; i < slots; ++i)
        EXPECT_EQ(host(i), serial(n, i, op)) << eddy::parallel::to_string(reduce.transport()) << " slot " << i;
    }
  }
}

TEST(Reducer, BackToBackDeviceReductionsStayOrdered) {
  // Ten sums in a row with a kernel between each and no host synchronisation: each sees the previous result.
  eddy::parallel::Context context;
  const int n = context.size();
  for (auto backend : backends()) {
    eddy::parallel::Reducer reduce(context, eddy::parallel::choose_reduction_transport(backend));
    eddy::Buffer value("value", 1);
    Kokkos::deep_copy(value, 1.0);
    Real expected = 1.0;
    for (int step = 0; step < 10; ++step) {
      reduce.allreduce(value, ReduceOp::sum);
      add_one(value);
      expected = expected * n + 1.0;
    }
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value);
    EXPECT_EQ(host(0), expected) << eddy::parallel::to_string(reduce.transport());
  }
}

TEST(Reducer, DeviceReductionsReplayedFromALaunchGraphStayOrdered) {
  // Three sums with a kernel after each, recorded once into a CUDA graph (GPU builds) and replayed: each replay sees
  // the previous one's result, as the reductions inside a multigrid cycle's graph do.
  eddy::parallel::Context context;
  const int n = context.size();
  for (auto backend : backends()) {
    eddy::parallel::Reducer reduce(context, eddy::parallel::choose_reduction_transport(backend));
    if (reduce.blocks_host()) continue;  // a host wait cannot be recorded
    eddy::Buffer value("value", 1);
    Kokkos::deep_copy(value, 1.0);
    eddy::device::LaunchGraph graph(true);
    Real expected = 1.0;
    for (int run = 0; run < 4; ++run) {  // the first runs directly, the second records, the rest replay
      graph.run(value.data(), nullptr, 0, [&] {
        for (int step = 0; step < 3; ++step) {
          reduce.allreduce(value, ReduceOp::sum);
          add_one(value);
        }
      });
      for (int step = 0; step < 3; ++step) expected = expected * n + 1.0;
    }
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value);
    EXPECT_EQ(host(0), expected) << eddy::parallel::to_string(reduce.transport());
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_TRUE(graph.active()) << eddy::parallel::to_string(reduce.transport()) << ": recording the reductions failed";
#endif
  }
}

TEST(Reducer, AllgatherPlacesEveryRanksValuesInRankOrder) {
  // Each rank's values come from a kernel just before the gather, which must be ordered after it.
  eddy::parallel::Context context;
  const int n = context.size();
  constexpr int slots = 3;
  for (auto backend : backends()) {
    eddy::parallel::Reducer reduce(context, eddy::parallel::choose_reduction_transport(backend));
    eddy::Buffer mine("mine", slots), gathered("gathered", slots * n);
    fill_contributions(mine, context.rank());
    reduce.allgather(mine, gathered);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gathered);
    for (int r = 0; r < n; ++r) {
      for (int i = 0; i < slots; ++i) {
        EXPECT_EQ(host(r * slots + i), contribution(r, i))
            << eddy::parallel::to_string(reduce.transport()) << " rank " << r << " slot " << i;
      }
    }
    eddy::Buffer too_small("too_small", slots * n + 1);
    EXPECT_THROW(reduce.allgather(mine, too_small), eddy::Error) << eddy::parallel::to_string(reduce.transport());
  }
}
