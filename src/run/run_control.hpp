#pragma once
// When a run stops, decided the same way on every rank: end time, step limit, wall-clock limit (time.wall_time_limit),
// a signal (SIGTERM, SIGINT, SIGUSR1: checkpoint and stop; a second SIGINT kills at once), or a file in the run
// folder: `STOP` (checkpoint and stop) or `WRITE_NOW` (write fields and a checkpoint now, then go on). Both files are
// removed once seen.
//
// Signals, the clock and the files are local facts; ranks agree on them through one non-blocking MPI allreduce of
// a bit mask every `check_every` steps, whose result is used at the next check. Every rank thus acts at the same
// step, at the cost of one check interval of delay and no waiting on the network.
#include "config/deck.hpp"
#include "parallel/context.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

namespace eddy::run {

enum class StopReason { none, end_time, max_steps, wall_time, signal, stop_file };

/// Printable reason ("end time reached", ...).
std::string_view stop_reason_text(StopReason reason);

class RunControl {
 public:
  /// Installs the signal handlers (restored by the destructor) and starts the wall clock.
  RunControl(const config::TimeConfig& time, const std::filesystem::path& run_dir, parallel::Context& context,
             int check_every = 1);
  ~RunControl();
  RunControl(const RunControl&) = delete;
  RunControl& operator=(const RunControl&) = delete;

  /// True when the run should stop after `step` at simulated `time`; call once per step on every rank.
  bool should_stop(long long step, double time);
  /// True once after a WRITE_NOW request was agreed: write fields and a checkpoint now.
  bool take_write_request();
  /// Why should_stop returned true (none before that).
  StopReason reason() const { return reason_; }
  /// True when the stop came early (wall clock, signal, STOP file), so a checkpoint must be written before exit.
  bool stopped_early() const;
  /// The signal number received (0 if none).
  int signal_number() const;
  /// A line for the log: why the run stopped and, when stopped early, how to continue it.
  std::string stop_message(const std::string& deck_path) const;

 private:
  enum Bits : int { signal_bit = 1, wall_bit = 2, stop_file_bit = 4, write_now_bit = 8 };
  int local_bits();
  void apply(int bits);

  double end_time_;
  long long max_steps_;
  double wall_time_limit_;
  std::filesystem::path run_dir_;
  parallel::Context* context_;
  int check_every_;
  std::chrono::steady_clock::time_point start_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  int send_bits_ = 0, agreed_bits_ = 0;
  bool write_requested_ = false;
  StopReason reason_ = StopReason::none;
  long long stop_step_ = 0;
  double stop_time_ = 0;
};

}  // namespace eddy::run
