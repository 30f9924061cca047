#pragma once
// Wall-clock time per phase of the time step (eddy::Phase), per step and over the run. Each timed scope is also a
// Kokkos profiling region, and can fence the device before it stops so asynchronous kernels are charged to the
// phase that launched them.
#include "core/step_record.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <string>

namespace eddy {

class PhaseTimers {
 public:
  static constexpr int count = static_cast<int>(Phase::count);
  using Seconds = std::array<double, count>;

  /// `fence`: wait for the device at the end of each phase (exact attribution, small cost on GPUs).
  explicit PhaseTimers(bool fence = true) : fence_(fence) {}

  /// Times one phase for the lifetime of the scope.
  class Scope {
   public:
    Scope(PhaseTimers& timers, Phase phase) : timers_(&timers), phase_(phase) {
      Kokkos::Profiling::pushRegion(std::string(phase_name(phase)));
      timer_.reset();
    }
    ~Scope() {
      if (timers_->fence_) Kokkos::fence("eddy::phase_end");
      timers_->add(phase_, timer_.seconds());
      Kokkos::Profiling::popRegion();
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimers* timers_;
    Phase phase_;
    Kokkos::Timer timer_;
  };

  /// Starts timing `phase` until the returned scope ends.
  [[nodiscard]] Scope time(Phase phase) { return Scope(*this, phase); }
  /// Adds `seconds` to a phase (for time measured elsewhere).
  void add(Phase phase, double seconds) {
    step_[static_cast<int>(phase)] += seconds;
    total_[static_cast<int>(phase)] += seconds;
  }
  /// Seconds per phase since the last start_step().
  const Seconds& step() const { return step_; }
  /// Seconds per phase over the whole run.
  const Seconds& total() const { return total_; }
  /// Clears the per-step accumulators.
  void start_step() { step_.fill(0); }

 private:
  bool fence_;
  Seconds step_{};
  Seconds total_{};
};

}  // namespace eddy
