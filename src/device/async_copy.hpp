#pragma once
// Copies from global memory into a team's scratch that complete in the background on GPUs that have them (NVIDIA
// sm_80 and later: cp.async), so that a team keeps several planes of a tile in flight without holding them in
// registers. Copies are grouped: each commit closes a group, and a wait lets at most `Pending` of the latest groups
// still run. Elsewhere a copy is a plain load and store, and commits and waits do nothing.
#include <Kokkos_Core.hpp>

namespace eddy::device {

/// Starts copying the value (four or eight bytes) at `from` (global memory) to `to` (team scratch).
template <class Value>
KOKKOS_INLINE_FUNCTION void copy_to_scratch(Value* to, const Value* from) {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (sizeof(Value) == 8) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(to))),
                 "l"(from)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(to))),
                 "l"(from)
                 : "memory");
  }
#else
  *to = *from;
#endif
}

/// Closes the group of the copies this thread started since the last commit.
KOKKOS_INLINE_FUNCTION void commit_scratch_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/// Waits until all but the latest `Pending` groups of this thread's copies have landed (a team barrier must follow
/// before other threads read them).
template <int Pending>
KOKKOS_INLINE_FUNCTION void wait_for_scratch_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

}  // namespace eddy::device
