// The scaling verdict names the main cost of a multi-rank run in plain words, with the numbers that back it.
#include "run/scaling_verdict.hpp"

#include <gtest/gtest.h>

namespace {

using eddy::run::scaling_verdict;
using eddy::run::ScalingFacts;

ScalingFacts facts(double halo, double reduction, double poisson, double imbalance) {
  ScalingFacts f;
  f.ranks = 4;
  f.dimensions = 2;
  f.local_cells = {32, 32, 1};
  f.halo_share = halo;
  f.reduction_share = reduction;
  f.poisson_share = poisson;
  f.imbalance = imbalance;
  return f;
}

TEST(ScalingVerdict, OneRankHasNone) {
  ScalingFacts f = facts(0.5, 0.5, 0, 0.5);
  f.ranks = 1;
  EXPECT_EQ(scaling_verdict(f), "");
}

TEST(ScalingVerdict, HaloBoundRunBlamesTheLocalGrid) {
  ScalingFacts f = facts(0.31, 0.02, 0.3, 0);
  f.local_cells = {32, 20, 1};
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("halo exchange is 31% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("the local grid (32x20) is too small for 4 ranks"), std::string::npos) << v;
  EXPECT_NE(v.find("16 ghost cells per 100 owned"), std::string::npos) << v;  // 2/32 + 2/20
}

TEST(ScalingVerdict, OutputIsLeftOutOfTheStep) {
  ScalingFacts f = facts(0.05, 0.01, 0.1, 0);
  EXPECT_NE(scaling_verdict(f).find("this run scales well"), std::string::npos) << scaling_verdict(f);
  f.output_share = 0.8;  // a short run that ends with a checkpoint: the halo is a quarter of its stepping
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("halo exchange is 25% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("The pressure solve is 50% of the step"), std::string::npos) << v;
}

TEST(ScalingVerdict, ReductionBoundRunIsLatencyBound) {
  const std::string v = scaling_verdict(facts(0.05, 0.2, 0.3, 0));
  EXPECT_NE(v.find("global reductions are 20% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("latency"), std::string::npos) << v;
}

TEST(ScalingVerdict, ImbalanceIsNamedWhenCommunicationIsCheap) {
  const std::string v = scaling_verdict(facts(0.02, 0.01, 0.3, 0.12));
  EXPECT_NE(v.find("unevenly loaded: 12% of the step is spent waiting"), std::string::npos) << v;
}

TEST(ScalingVerdict, CheapCommunicationScalesWell) {
  ScalingFacts f = facts(0.03, 0.02, 0.3, 0.01);
  f.dimensions = 3;
  f.local_cells = {64, 64, 32};
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("communication (halo + reductions) is 5% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("(64x64x32)"), std::string::npos) << v;
  EXPECT_NE(v.find("scales well"), std::string::npos) << v;
  EXPECT_EQ(v.find("pressure solve"), std::string::npos) << v;
}

TEST(ScalingVerdict, DominantPressureSolveIsPointedOut) {
  const std::string v = scaling_verdict(facts(0.05, 0.1, 0.8, 0));
  EXPECT_NE(v.find("is 15% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("The pressure solve is 80% of the step"), std::string::npos) << v;
}

TEST(ScalingVerdict, PressureSolveHaloCountsAsHaloExchange) {
  ScalingFacts f = facts(0.02, 0.01, 0.3, 0);
  f.poisson_halo_share = 0.25;
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("halo exchange is 27% of the step (25% in the pressure solve)"), std::string::npos) << v;
  EXPECT_DOUBLE_EQ(f.communication_share(), 0.28);
}

TEST(ScalingVerdict, PressureSolveReductionsMakeTheRunLatencyBound) {
  ScalingFacts f = facts(0.02, 0.04, 0.3, 0);
  f.poisson_reduction_share = 0.12;
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("global reductions are 16% of the step (12% in the pressure solve)"), std::string::npos) << v;
  EXPECT_NE(v.find("latency"), std::string::npos) << v;
}

TEST(ScalingVerdict, PressureSolveShareIncludesItsCommunication) {
  ScalingFacts f = facts(0.02, 0.01, 0.4, 0);
  f.poisson_halo_share = 0.05;
  f.poisson_reduction_share = 0.06;
  EXPECT_DOUBLE_EQ(f.poisson_solve_share(), 0.51);
  const std::string v = scaling_verdict(f);
  EXPECT_NE(v.find("communication (halo + reductions) is 14% of the step"), std::string::npos) << v;
  EXPECT_NE(v.find("The pressure solve is 51% of the step (11% in its halo exchanges and reductions)"),
            std::string::npos)
      << v;
}

}  // namespace

namespace {

// The node's cores come first: more threads than cores, or cores shared with other work, explain a slow run that no
// split of the grid does. GPU runs use the host cores only to launch work.
TEST(ScalingVerdict, OversubscribedOrBusyCoresAreNamedFirst) {
  ScalingFacts f = facts(0.31, 0.02, 0.3, 0);
  f.ranks = 2;
  f.ranks_on_node = 2;
  f.threads_per_rank = 2;
  f.cores_on_node = 2;
  std::string v = scaling_verdict(f);
  EXPECT_EQ(v.rfind("the node is oversubscribed: 2 ranks x 2 threads run on 2 cores", 0), 0u) << v;
  EXPECT_NE(v.find("halo exchange is 31%"), std::string::npos) << v;

  f.threads_per_rank = 1;
  f.core_share = 0.52;
  v = scaling_verdict(f);
  EXPECT_EQ(v.rfind("the node's cores were shared: a rank ran on a core only 52% of the time", 0), 0u) << v;

  f.core_share = 0.97;
  EXPECT_EQ(scaling_verdict(f).find("the node"), std::string::npos);

  f.threads_per_rank = 8;
  f.core_share = 0.3;
  f.on_gpus = true;
  EXPECT_EQ(scaling_verdict(f).find("the node"), std::string::npos) << scaling_verdict(f);
}

// A GPU run on fewer cells per GPU than latency_bound_cells is called latency-bound, with its time per step and what
// to do; larger blocks and CPU runs get no such verdict.
TEST(LatencyVerdict, SmallBlocksOnGpusAreLatencyBound) {
  ScalingFacts f = facts(0, 0, 0.5, 0);
  f.ranks = 1;
  f.local_cells = {256, 256, 1};
  EXPECT_EQ(eddy::run::latency_verdict(f, 1.7e-3), "");  // a CPU run
  f.on_gpus = true;
  const std::string v = eddy::run::latency_verdict(f, 1.7e-3);
  EXPECT_NE(v.find("latency-bound: 6.55e+04 cells per GPU take 1.700 ms a step (25.9 ns per cell)"), std::string::npos)
      << v;
  EXPECT_EQ(v.find("fewer GPUs"), std::string::npos) << v;
  f.ranks = 2;
  EXPECT_NE(eddy::run::latency_verdict(f, 1.7e-3).find("fewer GPUs"), std::string::npos);
  f.local_cells = {256, 256, 32};
  EXPECT_EQ(eddy::run::latency_verdict(f, 1.7e-3), "");  // 2^21 cells: bandwidth-bound
}

}  // namespace
