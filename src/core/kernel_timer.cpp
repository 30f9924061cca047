#include "core/kernel_timer.hpp"

#include "core/error.hpp"
#include "core/types.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <utility>

namespace eddy {
namespace {

using Clock = std::chrono::steady_clock;

// Kokkos Tools callbacks are plain function pointers with no user data: the one process-wide pointer below is how
// they reach the running timer's record, which the timer owns.
struct Open {
  std::uint64_t id;
  std::string label;
  Clock::time_point start;
};

}  // namespace

struct KernelTimer::Record {
  std::uint64_t next_id = 0;
  std::uint64_t copy_id = 0;  // deep copies have no id: the one begun is the one that ends
  std::vector<Open> open;     // launches begun and not yet ended (one, as launches do not nest)
  std::map<std::string, KernelTime> by_label;
};

namespace {

KernelTimer::Record* running = nullptr;

void begin(const std::string& label, std::uint64_t* id) {
  Kokkos::fence("eddy::KernelTimer::before");
  *id = running->next_id++;
  running->open.push_back({*id, label, Clock::now()});
}

void end(std::uint64_t id) {
  Kokkos::fence("eddy::KernelTimer::after");
  const Clock::time_point now = Clock::now();
  auto& open = running->open;
  const auto it = std::find_if(open.begin(), open.end(), [&](const Open& o) { return o.id == id; });
  if (it == open.end()) return;
  KernelTime& t = running->by_label[it->label];
  t.label = it->label;
  ++t.launches;
  t.seconds += std::chrono::duration<double>(now - it->start).count();
  open.erase(it);
}

void begin_kernel(const char* name, std::uint32_t, std::uint64_t* id) { begin(name, id); }

void begin_copy(Kokkos::Tools::SpaceHandle, const char* to, const void*, Kokkos::Tools::SpaceHandle, const char*,
                const void*, std::uint64_t) {
  begin(*to != '\0' ? std::string("deep_copy into ") + to : std::string("deep_copy (unlabelled view)"),
        &running->copy_id);
}

void end_copy() { end(running->copy_id); }

void set_callbacks(bool on) {
  namespace tools = Kokkos::Tools::Experimental;
  tools::set_begin_parallel_for_callback(on ? begin_kernel : nullptr);
  tools::set_begin_parallel_reduce_callback(on ? begin_kernel : nullptr);
  tools::set_begin_parallel_scan_callback(on ? begin_kernel : nullptr);
  tools::set_end_parallel_for_callback(on ? end : nullptr);
  tools::set_end_parallel_reduce_callback(on ? end : nullptr);
  tools::set_end_parallel_scan_callback(on ? end : nullptr);
  tools::set_begin_deep_copy_callback(on ? begin_copy : nullptr);
  tools::set_end_deep_copy_callback(on ? end_copy : nullptr);
}

}  // namespace

KernelTimer::KernelTimer() : record_(std::make_unique<Record>()) {
  require(running == nullptr, "KernelTimer: another timer is running");
  require(!Kokkos::Tools::profileLibraryLoaded(),
          "KernelTimer: a Kokkos tool library (KOKKOS_TOOLS_LIBS) holds the profiling callbacks; unset it to time "
          "kernels here");
  Kokkos::fence("eddy::KernelTimer::start");
  running = record_.get();
  set_callbacks(true);
}

KernelTimer::~KernelTimer() {
  set_callbacks(false);
  running = nullptr;
}

std::vector<KernelTime> KernelTimer::times() const {
  std::vector<KernelTime> times;
  for (const auto& [label, t] : record_->by_label) times.push_back(t);
  std::sort(times.begin(), times.end(), [](const KernelTime& a, const KernelTime& b) { return a.seconds > b.seconds; });
  return times;
}

std::string kernel_time_table(const std::vector<KernelTime>& times, double wall_seconds, long long steps,
                              const std::vector<double>& slowest, std::size_t listed) {
  const double per_step = steps > 0 ? 1.0 / static_cast<double>(steps) : 0.0;
  const double share = wall_seconds > 0 ? 100 / wall_seconds : 0.0;
  const bool ranks = !slowest.empty() && slowest.size() == times.size();
  std::string text;
  char line[200];
  const auto row = [&](const std::string& label, const std::string& launches, double seconds, double on_slowest) {
    std::snprintf(line, sizeof line, "  %-52s %14s %10.3f %6.1f%%", label.substr(0, 52).c_str(), launches.c_str(),
                  1e3 * seconds * per_step, seconds * share);
    text += line;
    if (ranks && on_slowest >= 0) {
      std::snprintf(line, sizeof line, " %14.3f", 1e3 * on_slowest * per_step);
      text += line;
    }
    text += '\n';
  };
  const auto count = [&](long long launches) {
    std::snprintf(line, sizeof line, "%.2f", static_cast<double>(launches) * per_step);
    return std::string(line);
  };
  std::snprintf(line, sizeof line, "  %-52s %14s %10s %7s%s\n", "kernel (label)", "launches/step", "ms/step", "share",
                ranks ? "  slowest rank" : "");
  text += line;
  double in_kernels = 0, rest = 0, rest_slowest = 0;
  long long rest_launches = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    in_kernels += times[k].seconds;
    if (k < listed) {
      row(times[k].label, count(times[k].launches), times[k].seconds, ranks ? slowest[k] : -1);
    } else {
      rest += times[k].seconds;
      rest_slowest += ranks ? slowest[k] : 0;
      rest_launches += times[k].launches;
    }
  }
  if (rest_launches > 0) row("other kernels", count(rest_launches), rest, ranks ? rest_slowest : -1);
  row("outside kernels (communication, host, I/O, fences)", "-", wall_seconds - in_kernels, -1);
  return text;
}

}  // namespace eddy
