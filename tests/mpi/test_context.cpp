// The node-local counts a run's context takes from MPI, and the advice a failed NCCL start gives when ranks outnumber
// the GPUs of a node.
#include "parallel/context.hpp"

#include <gtest/gtest.h>

TEST(Context, NodeRankCountIsEveryRankOfATestRun) {
  // ctest starts every rank of a test on this machine: the node holds the whole world.
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_EQ(eddy::parallel::node_rank_count(MPI_COMM_WORLD), size);
  const eddy::parallel::Context context;
  EXPECT_EQ(context.local_rank(), rank);
}

TEST(Context, DeviceSharingHintNamesTheCountsAndTheWayOut) {
  const std::string hint = eddy::parallel::device_sharing_hint(4, 2);
  EXPECT_NE(hint.find("4 ranks run on this node"), std::string::npos) << hint;
  EXPECT_NE(hint.find("2 GPU(s) are visible"), std::string::npos) << hint;
  EXPECT_NE(hint.find("one rank per GPU (at most 2 per node)"), std::string::npos) << hint;
  EXPECT_NE(hint.find("parallel.halo_backend"), std::string::npos) << hint;
  EXPECT_NE(hint.find("parallel.reduction_backend"), std::string::npos) << hint;
  // One GPU per rank, fewer ranks than GPUs, or no GPU at all: nothing to explain.
  EXPECT_EQ(eddy::parallel::device_sharing_hint(2, 2), "");
  EXPECT_EQ(eddy::parallel::device_sharing_hint(1, 4), "");
  EXPECT_EQ(eddy::parallel::device_sharing_hint(2, 0), "");
}
