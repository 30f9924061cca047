// The fused stage's tiling chosen by timing: each stage form runs the candidates in turn, each as often as asked,
// keeps the one with the shortest time, and then runs only that one; forms choose apart. The clock is the test's own:
// each candidate advances it by a set time per call.
#include "time/stage_tiling_choice.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using eddy::config::AdvectionScheme;
using eddy::time::StageTiling;
using eddy::time::StageTilingChoice;
using eddy::time::StageWeights;

bool same(const StageTiling& a, const StageTiling& b) {
  return a.x == b.x && a.y == b.y && a.planes == b.planes && a.ring == b.ring && a.pairs == b.pairs && a.rows == b.rows;
}

// Candidates and the seconds each call of them takes on the test's clock.
struct Timed {
  std::vector<StageTiling> candidates;
  std::vector<double> seconds;
  double now = 0;
  std::vector<int> ran;  // candidate index per call

  StageTilingChoice choice(int samples) {
    return StageTilingChoice(candidates, samples, [this] { return now; });
  }
  void call(StageTilingChoice& choice, const StageWeights& weights, AdvectionScheme scheme) {
    choice.run(weights, scheme, [&](const StageTiling& tiling) {
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        if (same(tiling, candidates[c])) {
          ran.push_back(static_cast<int>(c));
          now += seconds[c];
        }
      }
    });
  }
};

}  // namespace

TEST(StageTilingChoice, EachFormTimesEveryCandidateThenKeepsTheFastest) {
  Timed timed{{{32, 8, 0, 4}, {32, 8, 0, 5}, {32, 4, 0, 8}}, {3.0, 2.0, 4.0}, 0, {}};
  StageTilingChoice choice = timed.choice(2);
  const StageWeights first{0.02, 0, true}, second{0.03, -0.01, true};
  for (int call = 0; call < 6; ++call) {
    EXPECT_EQ(choice.chosen(first, AdvectionScheme::central), nullptr) << "call " << call;
    timed.call(choice, first, AdvectionScheme::central);
  }
  EXPECT_EQ(timed.ran, (std::vector<int>{0, 1, 2, 0, 1, 2}));
  ASSERT_NE(choice.chosen(first, AdvectionScheme::central), nullptr);
  EXPECT_TRUE(same(*choice.chosen(first, AdvectionScheme::central), timed.candidates[1]));
  for (int call = 0; call < 3; ++call) timed.call(choice, first, AdvectionScheme::central);
  EXPECT_EQ(timed.ran, (std::vector<int>{0, 1, 2, 0, 1, 2, 1, 1, 1}));

  // Another form (a stage that reads R_{k-1}; the same weights upwinded) chooses afresh, here another candidate.
  timed.seconds = {1.0, 5.0, 6.0};
  timed.ran.clear();
  for (const auto scheme : {AdvectionScheme::central, AdvectionScheme::upwind}) {
    for (int call = 0; call < 6; ++call) timed.call(choice, second, scheme);
    ASSERT_NE(choice.chosen(second, scheme), nullptr);
    EXPECT_TRUE(same(*choice.chosen(second, scheme), timed.candidates[0]));
  }
  EXPECT_EQ(choice.chosen(first, AdvectionScheme::upwind), nullptr);
  EXPECT_TRUE(same(*choice.chosen(first, AdvectionScheme::central), timed.candidates[1]));

  // A form still choosing says so; the others name their tiling, with each candidate's shortest time.
  timed.call(choice, first, AdvectionScheme::upwind);
  const std::string text = choice.describe();
  EXPECT_NE(text.find("no R_{k-1}, keeps R_k: 32x8 ring 5 (32x8 ring 4 3000.000 ms, 32x8 ring 5 2000.000 ms, 32x4 "
                      "ring 8 4000.000 ms)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("reads R_{k-1}, keeps R_k: 32x8 ring 4"), std::string::npos) << text;
  EXPECT_NE(text.find("no R_{k-1}, keeps R_k, upwind: choosing"), std::string::npos) << text;
}

TEST(StageTilingChoice, TheShortestSampleCounts) {
  // The first call of the faster candidate is slow (a kernel's first launch loads it); its second sample decides.
  Timed timed{{{32, 8, 0, 4}, {32, 8, 0, 5}}, {3.0, 10.0}, 0, {}};
  StageTilingChoice choice = timed.choice(2);
  const StageWeights first{0.02, 0, true};
  for (int call = 0; call < 2; ++call) timed.call(choice, first, AdvectionScheme::central);
  timed.seconds = {3.0, 2.0};
  for (int call = 0; call < 2; ++call) timed.call(choice, first, AdvectionScheme::central);
  ASSERT_NE(choice.chosen(first, AdvectionScheme::central), nullptr);
  EXPECT_TRUE(same(*choice.chosen(first, AdvectionScheme::central), timed.candidates[1]));
}
