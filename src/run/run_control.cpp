#include "run/run_control.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>

namespace eddy::run {

namespace {

std::atomic<int> received_signal{0};
constexpr int handled_signals[] = {SIGTERM, SIGINT, SIGUSR1};
struct sigaction previous_actions[3];

extern "C" void on_stop_signal(int number) {
  if (number == SIGINT && received_signal.load() != 0) {
    // A second Ctrl-C means "now": fall back to the default action.
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
    return;
  }
  received_signal.store(number);
}

const char* signal_name(int number) {
  switch (number) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGUSR1:
      return "SIGUSR1";
    default:
      return "a signal";
  }
}

}  // namespace

std::string_view stop_reason_text(StopReason reason) {
  switch (reason) {
    case StopReason::none:
      return "running";
    case StopReason::end_time:
      return "end time reached";
    case StopReason::max_steps:
      return "step limit (time.max_steps) reached";
    case StopReason::wall_time:
      return "wall-clock limit (time.wall_time_limit) reached";
    case StopReason::signal:
      return "stop signal received";
    case StopReason::stop_file:
      return "STOP file found in the run folder";
  }
  return "unknown";
}

RunControl::RunControl(const config::TimeConfig& time, const std::filesystem::path& run_dir, parallel::Context& context,
                       int check_every)
    : end_time_(time.end_time),
      max_steps_(time.max_steps),
      wall_time_limit_(time.wall_time_limit),
      run_dir_(run_dir),
      context_(&context),
      check_every_(check_every > 0 ? check_every : 1),
      start_(std::chrono::steady_clock::now()) {
  received_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int n = 0; n < 3; ++n) sigaction(handled_signals[n], &action, &previous_actions[n]);
}

RunControl::~RunControl() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  for (int n = 0; n < 3; ++n) sigaction(handled_signals[n], &previous_actions[n], nullptr);
}

int RunControl::local_bits() {
  int bits = 0;
  if (received_signal.load() != 0) bits |= signal_bit;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (wall_time_limit_ > 0 && elapsed >= wall_time_limit_) bits |= wall_bit;
  if (context_->rank() == 0) {
    std::error_code ec;
    if (std::filesystem::remove(run_dir_ / "STOP", ec)) bits |= stop_file_bit;
    if (std::filesystem::remove(run_dir_ / "WRITE_NOW", ec)) bits |= write_now_bit;
  }
  return bits;
}

void RunControl::apply(int bits) {
  if (bits & write_now_bit) write_requested_ = true;
  if (reason_ != StopReason::none) return;
  if (bits & signal_bit) {
    reason_ = StopReason::signal;
  } else if (bits & stop_file_bit) {
    reason_ = StopReason::stop_file;
  } else if (bits & wall_bit) {
    reason_ = StopReason::wall_time;
  }
}

bool RunControl::should_stop(long long step, double time) {
  if (step % check_every_ == 0) {
    if (request_ != MPI_REQUEST_NULL) {
      MPI_Wait(&request_, MPI_STATUS_IGNORE);
      apply(agreed_bits_);
    }
    send_bits_ = local_bits();
    MPI_Iallreduce(&send_bits_, &agreed_bits_, 1, MPI_INT, MPI_BOR, context_->comm(), &request_);
  }
  if (reason_ == StopReason::none) {
    if (time >= end_time_ * (1 - 1e-12)) {
      reason_ = StopReason::end_time;
    } else if (step >= max_steps_) {
      reason_ = StopReason::max_steps;
    }
  }
  if (reason_ != StopReason::none) {
    stop_step_ = step;
    stop_time_ = time;
  }
  return reason_ != StopReason::none;
}

bool RunControl::take_write_request() {
  const bool requested = write_requested_;
  write_requested_ = false;
  return requested;
}

bool RunControl::stopped_early() const {
  return reason_ == StopReason::wall_time || reason_ == StopReason::signal || reason_ == StopReason::stop_file;
}

int RunControl::signal_number() const { return received_signal.load(); }

std::string RunControl::stop_message(const std::string& deck_path) const {
  char text[512];
  if (reason_ == StopReason::signal) {
    std::snprintf(text, sizeof(text), "stopped at step %lld (t = %.6g): %s received", stop_step_, stop_time_,
                  signal_name(signal_number()));
  } else {
    std::snprintf(text, sizeof(text), "stopped at step %lld (t = %.6g): %s", stop_step_, stop_time_,
                  std::string(stop_reason_text(reason_)).c_str());
  }
  std::string message = text;
  if (stopped_early()) {
    message += "; a checkpoint was written. Continue with: eddy run " + deck_path + " --restart latest";
  }
  return message;
}

}  // namespace eddy::run
