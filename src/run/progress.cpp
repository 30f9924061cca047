#include "run/progress.hpp"

#include "run/run_log.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace eddy::run {
namespace {

constexpr auto redraw_period = std::chrono::milliseconds(250);

std::string duration_text(double seconds) {
  if (!(seconds >= 0) || seconds > 1e7) return "--:--";
  const long long s = static_cast<long long>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof(text), "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(text, sizeof(text), "%lld:%02lld", s / 60, s % 60);
  }
  return text;
}

// Variables MPI launchers set in the environment of the ranks they start: Open MPI (mpirun), PMIx launchers (Open MPI
// 5's prterun, srun --mpi=pmix), and the PMI of MPICH's Hydra, Intel MPI and srun --mpi=pmi2.
constexpr const char* launcher_variables[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};

}  // namespace

bool stdout_is_live_terminal() {
  if (isatty(fileno(stdout)) == 0) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  for (const char* name : launcher_variables) {
    if (std::getenv(name) != nullptr) return false;
  }
  return true;
}

Progress::Progress(const config::Deck& deck, bool enabled, double time, long long step)
    : enabled_(enabled),
      live_(enabled && stdout_is_live_terminal()),
      log_interval_(deck.output.log_interval),
      max_steps_(deck.time.max_steps),
      start_step_(step),
      end_time_(deck.time.end_time),
      start_time_(time),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::update(const StepRecord& r) {
  if (!enabled_) return;
  if (!live_) {
    if (log_interval_ > 0 && r.step % log_interval_ == 0) print_step(r);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < redraw_period) return;
  last_draw_ = now;
  // The fraction done, by simulated time or by steps, whichever is further along.
  const double by_time = end_time_ > start_time_ ? (r.time - start_time_) / (end_time_ - start_time_) : 0;
  const double by_steps = max_steps_ > start_step_ ? static_cast<double>(r.step - start_step_) /
                                                         static_cast<double>(max_steps_ - start_step_)
                                                   : 0;
  const double done = std::clamp(std::max(by_time, by_steps), 0.0, 1.0);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = done > 0 ? elapsed * (1 - done) / done : -1;
  std::printf("\rstep %lld  t %.4e / %.4g  dt %.3e  cfl %.2f  %5.1f %%  ETA %s   ", r.step, r.time, end_time_, r.dt,
              r.cfl, 100 * done, duration_text(eta).c_str());
  std::fflush(stdout);
  line_open_ = true;
}

void Progress::end_line() {
  if (!line_open_) return;
  std::printf("\n");
  std::fflush(stdout);
  line_open_ = false;
}

}  // namespace eddy::run
