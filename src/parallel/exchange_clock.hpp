#pragma once
// Device time of halo exchanges whose waiting the host never sees: peer writes and NCCL transfers enqueued on the
// compute stream, inside a CUDA graph or not. An exchange timed on a clock stamps the start of its pack kernel and,
// when its unpack kernel starts (after the stream waited for every neighbour's message), adds the time since: the
// stretch of the compute stream that packs, sends and waits. Stamps come from the GPU's global nanosecond timer (a
// steady host clock on CPUs) and are summed on the device; the host reads the sum where it waits for the device anyway.
// A device backend without such a timer (not CUDA, not the host) cannot measure: measures() says so, stamps() refuses,
// and run summaries report the exchanges as enqueued only instead of a time of 0.
#include "core/types.hpp"

#include <Kokkos_Core.hpp>

#include <chrono>

namespace eddy::parallel {

/// Nanoseconds of the host's steady clock.
inline unsigned long long host_clock_now() {
  const auto since = std::chrono::steady_clock::now().time_since_epoch();
  return static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(since).count());
}

/// True where exchange_clock_now() reads a real clock on the device the kernels run on: CUDA, or the host.
constexpr bool exchange_clock_measures() {
#if defined(KOKKOS_ENABLE_CUDA)
  return true;
#else
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;
#endif
}

/// Nanoseconds of a clock that reads alike on every thread of the device (and of the host on CPU builds); 0 where
/// exchange_clock_measures() is false.
KOKKOS_INLINE_FUNCTION unsigned long long exchange_clock_now() {
  unsigned long long ns = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  KOKKOS_IF_ON_DEVICE((asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));))
#endif
  KOKKOS_IF_ON_HOST((ns = host_clock_now();))
  return ns;
}

/// The two words a timed exchange's kernels touch: the sum of its intervals and the start of the one in flight.
struct ExchangeStamps {
  unsigned long long* words = nullptr;  ///< {sum, start}; nullptr: not timed

  /// At the start of the pack kernel (by one thread).
  KOKKOS_INLINE_FUNCTION void packing() const {
    if (words != nullptr) words[1] = exchange_clock_now();
  }
  /// At the start of the unpack kernel (by one thread).
  KOKKOS_INLINE_FUNCTION void unpacking() const {
    if (words != nullptr) Kokkos::atomic_add(&words[0], exchange_clock_now() - words[1]);
  }
};

/// The sum of the intervals of every exchange timed on it. Exchanges timed on one clock must not overlap: each
/// finishes before the next begins, as the exchanges of one solver on its stream do.
class ExchangeClock {
 public:
  ExchangeClock();
  /// True where this build's device can be clocked (exchange_clock_measures()).
  static constexpr bool measures() { return exchange_clock_measures(); }
  /// What an exchange's kernels stamp; counts the exchange as timed. Throws eddy::Error where measures() is false.
  ExchangeStamps stamps();
  /// True once an exchange was timed on it.
  bool timing() const { return exchanges_ > 0; }
  /// Seconds added since the previous call (copies one value from the device, which waits for the device).
  double take_seconds();

 private:
  Kokkos::View<unsigned long long[2], MemSpace> words_;
  unsigned long long taken_ = 0;
  int exchanges_ = 0;
};

}  // namespace eddy::parallel
