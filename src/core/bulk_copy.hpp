#pragma once
// Copies of whole runs of values from global memory into a team's scratch by the copy engine of NVIDIA sm_90 and later
// (cp.async.bulk): one instruction per run instead of one per value, completion counted in bytes on an arrival barrier
// (an mbarrier in team scratch). A team announces the bytes a barrier is to receive (one thread, once per use), starts
// the copies (any threads), and every thread that reads them waits for the barrier's use to complete. Elsewhere a copy
// is a plain loop of loads and stores that has finished when it returns, and the barrier calls do nothing: a team
// barrier between the copies and the reads is then what makes them visible, so callers keep one.
#include "core/types.hpp"

#include <cstdint>

namespace eddy {

/// An arrival barrier: eight bytes of team scratch.
using ArrivalBarrier = std::uint64_t;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define EDDY_BULK_COPY 1
#endif

namespace detail {
KOKKOS_INLINE_FUNCTION unsigned scratch_address([[maybe_unused]] const void* p) {
#if defined(EDDY_BULK_COPY)
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
#else
  return 0;
#endif
}
}  // namespace detail

/// Makes `barrier` ready for its first use with one announcing thread; a team barrier must follow before any use.
KOKKOS_INLINE_FUNCTION void init_arrival_barrier([[maybe_unused]] ArrivalBarrier* barrier) {
#if defined(EDDY_BULK_COPY)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(detail::scratch_address(barrier)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/// Retires `barrier` (one thread, after a team barrier that follows its last wait), so its scratch may be reused.
KOKKOS_INLINE_FUNCTION void retire_arrival_barrier([[maybe_unused]] ArrivalBarrier* barrier) {
#if defined(EDDY_BULK_COPY)
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(detail::scratch_address(barrier)) : "memory");
#endif
}

/// Announces that the current use of `barrier` receives `bytes` (0: it completes at once); one thread per use.
KOKKOS_INLINE_FUNCTION void announce_bytes([[maybe_unused]] ArrivalBarrier* barrier, [[maybe_unused]] unsigned bytes) {
#if defined(EDDY_BULK_COPY)
  asm volatile("{ .reg .b64 state; mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1; }" ::"r"(
                   detail::scratch_address(barrier)),
               "r"(bytes)
               : "memory");
#endif
}

/// Orders this thread's earlier reads of team scratch before copies it starts next into the same scratch.
KOKKOS_INLINE_FUNCTION void order_scratch_reads_before_bulk_copies() {
#if defined(EDDY_BULK_COPY)
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/// Starts copying `bytes` (a multiple of 16) from `from` (global memory) to `to` (team scratch), both 16-byte aligned,
/// counted on `barrier`.
KOKKOS_INLINE_FUNCTION void bulk_copy_to_scratch(Real* to, const Real* from, unsigned bytes,
                                                 [[maybe_unused]] ArrivalBarrier* barrier) {
#if defined(EDDY_BULK_COPY)
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   detail::scratch_address(to)),
               "l"(from), "r"(bytes), "r"(detail::scratch_address(barrier))
               : "memory");
#else
  for (unsigned n = 0; n < bytes / sizeof(Real); ++n) to[n] = from[n];
#endif
}

/// Waits until use `use` (0, 1, 2, ... in order) of `barrier` has completed: its announced bytes have landed.
KOKKOS_INLINE_FUNCTION void wait_for_arrival([[maybe_unused]] ArrivalBarrier* barrier, [[maybe_unused]] int use) {
#if defined(EDDY_BULK_COPY)
  const unsigned address = detail::scratch_address(barrier), parity = static_cast<unsigned>(use) & 1u;
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred complete; mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2; selp.u32 %0, 1, 0, "
        "complete; }"
        : "=r"(done)
        : "r"(address), "r"(parity)
        : "memory");
  }
#endif
}

}  // namespace eddy
