#pragma once
// A counter-based hash: the same pseudo-random number for the same global index on any number of ranks.
#include "core/types.hpp"

namespace eddy {

/// The pseudo-random number in [-1, 1] of a global face index, seed and component (same on every rank count).
KOKKOS_INLINE_FUNCTION Real face_hash(long long global_index, unsigned long long seed, int component) {
  unsigned long long x = static_cast<unsigned long long>(global_index) * 0x9E3779B97F4A7C15ULL + seed +
                         (static_cast<unsigned long long>(component) + 1) * 0xD1B54A32D192ED03ULL;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return static_cast<Real>(x >> 11) * (2.0 / 9007199254740992.0) - 1;
}

}  // namespace eddy
