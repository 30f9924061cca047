#pragma once
// The tiling of the fused stage by tiles, chosen on the machine that runs it. Tiles of 32 x 8 points with a ring of
// five planes keep the copy of the next plane in flight while a plane is computed; on an H200 they ran most stage forms
// 4-10% faster than a ring of four, on an H100 Wray's RK3 stages up to 8% slower and the SSP RK3's 7-10% faster (that
// loss comes with the second plane in flight, not with the larger scratch: a ring of four whose threads carried the
// plane below in registers, two planes in flight as well, lost as much). The same ring staged by aligned pairs of
// values (16-byte copies past L1) ran, in a 512^3 step on an H200, the SSP RK3's stages 2-7% and Wray's third stage 3%
// faster, Wray's first two 5-9% slower; an H100 chose it for the SSP RK3's blending stage only. Tiles of 32 x 6 with a
// ring of five, four teams a multiprocessor, hold a point's neighbours in 80 registers and ran every stage form
// fastest on an H200; at 64 registers the tiles of 32 x 8 spill (time/fused_stage.cpp, tests/perf/RESULTS.md). All give
// the same u* bit for bit, so each stage form (whether it reads R_{k-1}, keeps R_k, blends in u_0, upwinds) runs the
// candidates in turn on its first calls, each fenced and timed, and keeps the fastest for the rest of the run.
#include "config/deck.hpp"
#include "time/fused_stage.hpp"

#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace eddy::time {

class StageTilingChoice {
 public:
  /// Seconds on a clock that has waited for the device (the default fences and reads a wall clock).
  using Clock = std::function<double()>;

  /// Chooses among `candidates`, timing each `samples` times per stage form (the shortest time counts).
  explicit StageTilingChoice(std::vector<StageTiling> candidates = {std::begin(stage_tilings),
                                                                    std::begin(stage_tilings) +
                                                                        stage_tiling_candidates},
                             int samples = 2, Clock clock = {});

  /// Runs `stage` with the tiling of the form of `weights` and `scheme`: the chosen one, or, while the form still
  /// chooses, the next candidate, timed.
  void run(const StageWeights& weights, config::AdvectionScheme scheme,
           const std::function<void(const StageTiling&)>& stage);

  /// The tiling chosen for the form of `weights` and `scheme`, or nullptr while it is still being chosen.
  const StageTiling* chosen(const StageWeights& weights, config::AdvectionScheme scheme) const;

  /// Calls of one stage form before its tiling is chosen (on GPUs; on CPUs the stage runs by points).
  int calls_to_choose() const { return static_cast<int>(candidates_.size()) * samples_; }

  /// One line per form seen: its name, the tiling it runs (or "choosing") and the shortest time of each candidate.
  std::string describe() const;

 private:
  struct Form {
    std::vector<double> shortest;  // per candidate
    int calls = 0;
    int chosen = -1;
  };
  static int form_of(const StageWeights& weights, config::AdvectionScheme scheme);

  std::vector<StageTiling> candidates_;
  int samples_;
  Clock clock_;
  std::map<int, Form> forms_;
};

}  // namespace eddy::time
