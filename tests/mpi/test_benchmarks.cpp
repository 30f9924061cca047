// The benchmarks run to completion on small problems on 1 and several ranks (self exchange included), list their
// options with --help, and reject options and values they do not allow.
#include "bench/bench.hpp"
#include "core/error.hpp"

#include <gtest/gtest.h>

TEST(Benchmarks, HaloAndReduceRunOnSmallProblems) {
  eddy::parallel::Context context;
  EXPECT_EQ(eddy::bench::run({"halo", "--n", "12", "--fields", "2", "--width", "2", "--reps", "3"}, context), 0);
  EXPECT_EQ(eddy::bench::run({"halo", "--n", "8", "--fields", "1", "--reps", "3", "--open"}, context), 0);
  EXPECT_EQ(eddy::bench::run({"poisson", "--help"}, context), 0);
  EXPECT_EQ(eddy::bench::run({"reduce", "--reps", "20", "--values", "3"}, context), 0);
}

// The flow benchmark checks each form of its kernels against production before timing it.
TEST(Benchmarks, FlowKernelsRunAndAgreeWithProduction) {
  eddy::parallel::Context context;
  EXPECT_EQ(eddy::bench::run({"flow", "--n", "16", "--reps", "2"}, context), 0);
  EXPECT_THROW(eddy::bench::run({"flow", "--n", "2"}, context), eddy::Error);
}

// The stencil benchmark checks its forms of the residual, the transfers and the red-black sweep against production
// before timing them.
TEST(Benchmarks, StencilFormsRunAndAgreeWithProduction) {
  eddy::parallel::Context context;
  EXPECT_EQ(eddy::bench::run({"stencil", "--n", "16", "--reps", "2"}, context), 0);
}

TEST(Benchmarks, StepRunsStrongAndWeakScaled) {
  eddy::parallel::Context context;
  EXPECT_EQ(eddy::bench::run({"step", "--n", "16", "--steps", "2", "--warmup", "1"}, context), 0);
  EXPECT_EQ(eddy::bench::run({"step", "--n", "16", "--steps", "2", "--warmup", "1", "--weak"}, context), 0);
}

TEST(Benchmarks, UnknownNamesAndOptionsAreRejected) {
  eddy::parallel::Context context;
  EXPECT_THROW(eddy::bench::run({"nonexistent"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"halo", "--size", "8"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"halo", "--n", "eight"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"halo", "--open", "2"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"halo", "--n", "0"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"halo", "--n"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"poisson", "--smoothr", "jacobi"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"poisson", "--smoother", "sor"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"stencil", "--reps", "-3"}, context), eddy::Error);
  EXPECT_THROW(eddy::bench::run({"reduce", "--reps"}, context), eddy::Error);
}
