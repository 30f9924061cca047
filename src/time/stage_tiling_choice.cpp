#include "time/stage_tiling_choice.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <utility>

namespace eddy::time {

StageTilingChoice::StageTilingChoice(std::vector<StageTiling> candidates, int samples, Clock clock)
    : candidates_(std::move(candidates)), samples_(samples), clock_(std::move(clock)) {
  require(!candidates_.empty() && samples_ >= 1, "StageTilingChoice: no candidate tiling or no sample");
  if (!clock_) {
    clock_ = [] {
      ExecSpace().fence("rk::stage_tiling_choice");
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    };
  }
}

int StageTilingChoice::form_of(const StageWeights& weights, config::AdvectionScheme scheme) {
  return (weights.previous != 0 ? 1 : 0) | (weights.next_stage_reads_tendency ? 2 : 0) | (weights.start != 0 ? 4 : 0) |
         (scheme == config::AdvectionScheme::upwind ? 8 : 0);
}

void StageTilingChoice::run(const StageWeights& weights, config::AdvectionScheme scheme,
                            const std::function<void(const StageTiling&)>& stage) {
  Form& form = forms_[form_of(weights, scheme)];
  if (form.chosen >= 0) return stage(candidates_[form.chosen]);
  const int count = static_cast<int>(candidates_.size());
  if (form.shortest.empty()) form.shortest.assign(count, std::numeric_limits<double>::infinity());
  const int candidate = form.calls % count;
  const double start = clock_();
  stage(candidates_[candidate]);
  form.shortest[candidate] = std::min(form.shortest[candidate], clock_() - start);
  if (++form.calls == count * samples_) {
    form.chosen =
        static_cast<int>(std::min_element(form.shortest.begin(), form.shortest.end()) - form.shortest.begin());
  }
}

std::string StageTilingChoice::describe() const {
  std::string text;
  for (const auto& [key, form] : forms_) {
    std::string line = std::string(key & 1 ? "reads R_{k-1}" : "no R_{k-1}") + (key & 2 ? ", keeps R_k" : "") +
                       (key & 4 ? ", blends u_0" : "") + (key & 8 ? ", upwind" : "") + ": ";
    line += form.chosen >= 0 ? time::describe(candidates_[form.chosen]) : std::string("choosing");
    for (std::size_t c = 0; c < candidates_.size() && c < form.shortest.size(); ++c) {
      char time[48];
      std::snprintf(time, sizeof time, "%s%s %.3f ms", c == 0 ? " (" : ", ", time::describe(candidates_[c]).c_str(),
                    1e3 * form.shortest[c]);
      line += time;
    }
    text += line + (form.shortest.empty() ? "" : ")") + "\n";
  }
  return text;
}

const StageTiling* StageTilingChoice::chosen(const StageWeights& weights, config::AdvectionScheme scheme) const {
  const auto found = forms_.find(form_of(weights, scheme));
  if (found == forms_.end() || found->second.chosen < 0) return nullptr;
  return &candidates_[found->second.chosen];
}

}  // namespace eddy::time
