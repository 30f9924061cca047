#pragma once
// Charges one communication of the Poisson solver (a halo exchange, a global reduction, the gather of the coarsest
// level) to the poisson_halo or poisson_reduction phase of the run's timers, taking it off the enclosing poisson
// phase. Without timers (benchmarks, tests) it is only a Kokkos profiling region of the same name.
#include "core/phase_timers.hpp"
#include "core/profile_region.hpp"

#include <optional>
#include <string>

namespace eddy::solver {

class CommunicationScope {
 public:
  /// `blocks_host`: the communication waits for the device and the other ranks itself (MPI), so the scope may fence
  /// at its start at no extra cost; otherwise (NCCL) it measures the enqueueing only (see PhaseTimers::Wait).
  CommunicationScope(PhaseTimers* timers, Phase phase, bool blocks_host) {
    if (timers != nullptr) {
      scope_.emplace(*timers, phase, blocks_host ? PhaseTimers::Wait::at_start : PhaseTimers::Wait::never);
    } else {
      pushed_ = push_region(phase_name(phase));
    }
  }
  ~CommunicationScope() { pop_region(pushed_); }
  CommunicationScope(const CommunicationScope&) = delete;
  CommunicationScope& operator=(const CommunicationScope&) = delete;

 private:
  std::optional<PhaseTimers::Scope> scope_;
  bool pushed_ = false;  // a profiling region of the phase's name, when there are no timers
};

}  // namespace eddy::solver
