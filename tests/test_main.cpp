// Shared GoogleTest main: MPI and Kokkos live for the whole test program; rank 0 prints results, the other ranks only
// their own failures (a failure or an exception on one rank alone would otherwise go unseen). An exception that
// escapes a test on several ranks aborts them all.
#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

namespace {

// A listener that knows its rank and the running test (named at its start: gtest holds a lock while it reports a
// result, so a listener cannot ask it for the current test then).
class RankListener : public ::testing::EmptyTestEventListener {
 public:
  explicit RankListener(int rank) : rank_(rank) {}
  void OnTestStart(const ::testing::TestInfo& test) override {
    test_ = std::string(test.test_suite_name()) + "." + test.name();
  }

 protected:
  int rank_;
  std::string test_;
};

// Prints each failed assertion of a rank other than 0, with the rank and the test.
class RankFailurePrinter : public RankListener {
 public:
  using RankListener::RankListener;
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "rank %d, %s, %s:%d: %s\n", rank_, test_.c_str(),
                 result.file_name() ? result.file_name() : "?", result.line_number(), result.summary());
    std::fflush(stderr);
  }
};

// On several ranks, an exception that escapes a test body on one rank leaves the others waiting in a collective it
// never reaches: print it and abort every rank, so the run fails at once instead of at ctest's timeout.
class AbortOnEscapedException : public RankListener {
 public:
  using RankListener::RankListener;
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    const std::string summary = result.summary();
    if (!result.failed() || result.file_name() != nullptr || summary.find("exception") == std::string::npos) return;
    // Other ranks printed the failure already (RankFailurePrinter); rank 0's printer would only at the test's end.
    if (rank_ == 0) std::fprintf(stderr, "rank 0, %s: %s\n", test_.c_str(), summary.c_str());
    std::fprintf(stderr, "rank %d: an exception escaped %s; aborting every rank\n", rank_, test_.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (rank != 0) {
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(rank));
    }
    if (size > 1) listeners.Append(new AbortOnEscapedException(rank));
    result = RUN_ALL_TESTS();
    // A test that fails on any rank fails everywhere, so ctest sees it whichever rank exits first.
    MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return result;
}
