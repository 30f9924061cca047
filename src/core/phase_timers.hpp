#pragma once
// Time per phase of the time step (eddy::Phase), per step and over the run. Each timed scope is also a Kokkos
// profiling region named after its phase. Time is exclusive: a scope opened inside another (the pressure solver's
// halo exchanges inside the poisson phase) is charged to its own phase and taken off the enclosing one, so the phases
// of a step add up to the step.
//
// Exact timing (the default) charges each phase the device work it enqueued, without holding up the device:
// - on GPUs a scope records a CUDA event on the compute stream (ExecSpace()) where it opens and where it closes, and
//   is charged the stream's time between the two (except Wait::never scopes, which time their enqueueing on the host).
//   The events are read when step() or total() is asked for, which waits for the device once. The stream's time is cut
//   into consecutive scopes: a phase is charged its kernels, and also the stream's idle time while it was open (a wait
//   for a neighbour's message, the host's MPI calls or file writes). A halo pack running on a stream of its own beside
//   a phase's kernels is charged to the halo phase that waits for it, not to the phase it overlaps. Scopes opened while
//   the stream is captured into a CUDA graph time the host only.
// - on CPUs kernels run on the calling threads: a scope reads the host clock, after a fence at its end (Wait::at_end)
//   or its start (Wait::at_start), or with none (Wait::never), as Wait says.
// Without exact timing (output.exact_phase_times: false) scopes read the host clock only: on GPUs a phase is then
// charged the launch of its kernels, and their work falls to whichever later phase waits for the device.
#include "core/profile_region.hpp"
#include "core/step_record.hpp"
#include "core/types.hpp"
#include "device/stream_marks.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace eddy {

class PhaseTimers {
 public:
  static constexpr int count = static_cast<int>(Phase::count);
  using Seconds = std::array<double, count>;

  /// Where a host-timed scope waits for the device (CPU builds, exact timing only); Wait::never also on GPUs.
  enum class Wait {
    at_end,    ///< a phase: the kernels it launched are charged to it
    at_start,  ///< communication that blocks the host anyway: earlier kernels stay with the enclosing phase
    never,     ///< asynchronous communication: only its enqueueing is measured (on the host, also on GPUs)
  };

  /// `exact`: charge phases their device work (events on GPUs, fences on CPUs); otherwise time the host only.
  explicit PhaseTimers(bool exact = true);
  ~PhaseTimers();
  PhaseTimers(const PhaseTimers&) = delete;
  PhaseTimers& operator=(const PhaseTimers&) = delete;

  /// Times one phase for the lifetime of the scope (exclusive of scopes nested in it).
  class Scope {
   public:
    Scope(PhaseTimers& timers, Phase phase, Wait wait = Wait::at_end);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimers* timers_;
    Phase phase_;
    int enclosing_;
    Wait wait_;
    int start_mark_ = -1;  // the device mark where the scope opened, -1 when it times the host
    bool pushed_ = false;
    Kokkos::Timer timer_;
  };

  /// Starts timing `phase` until the returned scope ends.
  [[nodiscard]] Scope time(Phase phase, Wait wait = Wait::at_end) { return Scope(*this, phase, wait); }
  /// Adds `seconds` to a phase (for time measured elsewhere).
  void add(Phase phase, double seconds) {
    step_[static_cast<int>(phase)] += seconds;
    total_[static_cast<int>(phase)] += seconds;
  }
  /// Moves the seconds that `read` returns, once the device work enqueued so far is done, from the innermost open
  /// scope's phase to `phase`: time measured on the device inside that scope. `read` is called at the next step() or
  /// total(). Without an open scope it does nothing.
  void move_from_open_scope(Phase phase, std::function<double()> read);
  /// Seconds per phase since the last start_step() (waits for the device where scopes timed it).
  const Seconds& step();
  /// Seconds per phase over the whole run (waits for the device where scopes timed it).
  const Seconds& total();
  /// Whether scopes charge phases their device work (exact) or time the host only.
  void set_exact(bool exact) { exact_ = exact; }
  /// True when scopes charge phases their device work.
  bool exact() const { return exact_; }
  /// Clears the per-step accumulators (after charging what earlier scopes timed on the device to the run).
  void start_step();

 private:
  struct Interval {  // a scope timed on the device
    int phase, enclosing, start_mark, end_mark;
  };
  struct DeferredMove {
    int to, from;
    std::function<double()> read;
  };

  void resolve();  // charges the device intervals and deferred moves

  bool exact_;
  int active_ = -1;  // the phase of the innermost open scope, -1 for none
  Seconds step_{};
  Seconds total_{};
  std::unique_ptr<device::StreamMarks> marks_;  // the device clock of exact phases (CUDA builds)
  std::vector<Interval> intervals_;
  std::vector<DeferredMove> deferred_;
};

}  // namespace eddy
