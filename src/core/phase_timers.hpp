#pragma once
// Wall-clock time per phase of the time step (eddy::Phase), per step and over the run. Each timed scope is also a
// Kokkos profiling region named after its phase. Time is exclusive: a scope opened inside another (the pressure
// solver's halo exchanges inside the poisson phase) is charged to its own phase and taken off the enclosing one, so
// the phases of a step add up to the step.
//
// Waiting for the device (only when the timers fence, the default): a host timer around asynchronous kernels
// measures their launch, not their work, so a phase fences at its end and is charged the kernels it launched. A
// nested communication scope cannot do that without a fence per exchange on the solver's hot path, so it waits
// only where the communication blocks the host anyway (MPI: it fences itself before it sends): there it fences at
// its start, which charges the kernels queued before it to the enclosing phase and adds no synchronisation point.
// Asynchronous communication (NCCL, enqueued on the device stream) is not waited for: its scope measures the
// enqueueing only and its device time falls to the enclosing phase. A fence waits for the compute stream
// (ExecSpace()) only: a halo pack running on a stream of its own beside a phase's kernels is charged to the halo phase
// that joins it, not to the phase it overlaps.
#include "core/profile_region.hpp"
#include "core/step_record.hpp"
#include "core/types.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <string>

namespace eddy {

class PhaseTimers {
 public:
  static constexpr int count = static_cast<int>(Phase::count);
  using Seconds = std::array<double, count>;

  /// When a scope waits for the device (if the timers fence at all).
  enum class Wait {
    at_end,    ///< a phase: the kernels it launched are charged to it
    at_start,  ///< communication that blocks the host anyway: earlier kernels stay with the enclosing phase
    never,     ///< asynchronous communication: only its enqueueing is measured
  };

  /// `fence`: wait for the device as Wait says (exact attribution, small cost on GPUs).
  explicit PhaseTimers(bool fence = true) : fence_(fence) {}

  /// Times one phase for the lifetime of the scope (exclusive of scopes nested in it).
  class Scope {
   public:
    Scope(PhaseTimers& timers, Phase phase, Wait wait = Wait::at_end)
        : timers_(&timers), phase_(phase), enclosing_(timers.active_), wait_(wait) {
      if (wait_ == Wait::at_start && timers_->fence_) ExecSpace().fence("eddy::phase_start");
      pushed_ = push_region(phase_name(phase));
      timers_->active_ = static_cast<int>(phase);
      timer_.reset();
    }
    ~Scope() {
      if (wait_ == Wait::at_end && timers_->fence_) ExecSpace().fence("eddy::phase_end");
      const double seconds = timer_.seconds();
      timers_->add(phase_, seconds);
      if (enclosing_ >= 0) timers_->add(static_cast<Phase>(enclosing_), -seconds);
      timers_->active_ = enclosing_;
      pop_region(pushed_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimers* timers_;
    Phase phase_;
    int enclosing_;
    Wait wait_;
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
  /// Moves `seconds` of the innermost open scope's time to `phase`: time measured elsewhere (on the device) that the
  /// scope's wall time holds. Without an open scope it does nothing.
  void move_from_open_scope(Phase phase, double seconds) {
    if (active_ < 0) return;
    add(phase, seconds);
    add(static_cast<Phase>(active_), -seconds);
  }
  /// Seconds per phase since the last start_step().
  const Seconds& step() const { return step_; }
  /// Seconds per phase over the whole run.
  const Seconds& total() const { return total_; }
  /// Whether scopes wait for the device as Wait says (exact attribution) or time the host only (no added fences).
  void set_fence(bool fence) { fence_ = fence; }
  /// True when scopes wait for the device.
  bool fences() const { return fence_; }
  /// Clears the per-step accumulators.
  void start_step() { step_.fill(0); }

 private:
  bool fence_;
  int active_ = -1;  // the phase of the innermost open scope, -1 for none
  Seconds step_{};
  Seconds total_{};
};

}  // namespace eddy
