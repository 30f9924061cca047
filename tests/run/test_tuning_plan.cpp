// The run's tuning plan: what the deck asks is resolved against this build once, on every rank alike; a request the
// build cannot meet is refused naming its deck key; the plan reads the same in its line and in summary.json.
#include "config/load.hpp"
#include "core/error.hpp"
#include "grid/decomposition.hpp"
#include "grid/global_grid.hpp"
#include "time/tuning_plan.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace eddy;

config::Deck deck_with(const std::string& extra) {
  return config::load_text("domain: {dimensions: 3, cells: [16, 16, 16]}\n" + extra, "plan.yaml");
}

time::TuningPlan plan_of(const config::Deck& deck, const parallel::Context& context) {
  const auto decomp = grid::decompose(grid::global_grid(deck), context.comm(), deck.parallel.process_grid);
  return time::make_tuning_plan(deck, context, decomp);
}

TEST(TuningPlan, FollowsTheDeckAndThisBuild) {
  const parallel::Context context;
  const auto plan = plan_of(deck_with("tuning: {pair_planes: 4}\nparallel: {overlap: false}\n"), context);
  EXPECT_EQ(plan.pair_planes, 4);
  EXPECT_FALSE(plan.overlap);
  const auto expected = parallel::Context::nccl_available() ? parallel::Transport::nccl : parallel::Transport::mpi;
  EXPECT_EQ(plan.reductions, expected);
  if (!parallel::Context::nccl_available()) {
    EXPECT_EQ(plan.halo, parallel::Transport::mpi);
  }
  EXPECT_FALSE(plan.kernel_forms.empty());
  const std::string line = plan.describe();
  EXPECT_NE(line.find("halo " + parallel::to_string(plan.halo)), std::string::npos) << line;
  EXPECT_NE(line.find("pair columns of 4 planes"), std::string::npos) << line;
  EXPECT_NE(line.find("overlap off"), std::string::npos) << line;
  const std::string json = plan.json().dump();
  EXPECT_NE(json.find("\"pair_planes\": 4"), std::string::npos) << json;
  EXPECT_NE(json.find("\"halo_transport\": \"" + parallel::to_string(plan.halo) + "\""), std::string::npos) << json;
}

TEST(TuningPlan, ForcedMpiIsKept) {
  const parallel::Context context;
  const auto plan = plan_of(deck_with("parallel: {halo_backend: mpi, reduction_backend: mpi}\n"), context);
  EXPECT_EQ(plan.halo, parallel::Transport::mpi);
  EXPECT_EQ(plan.reductions, parallel::Transport::mpi);
}

TEST(TuningPlan, RequestsThisBuildCannotMeetNameTheirKey) {
  if (parallel::Context::nccl_available()) GTEST_SKIP() << "this build has NCCL";
  const parallel::Context context;
  for (const char* key : {"halo_backend", "reduction_backend"}) {
    try {
      plan_of(deck_with(std::string("parallel: {") + key + ": nccl}\n"), context);
      ADD_FAILURE() << key << ": nccl was accepted by a build without NCCL";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("parallel.") + key + ": 'nccl'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
