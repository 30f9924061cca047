#pragma once
// Initial velocity fields on the owned faces (the simulation projects them afterwards so they are divergence-free):
//   rest          u = 0
//   uniform       u = deck velocity
//   taylor_green  2D: u = A sin x cos y, v = -A cos x sin y; 3D: u = A sin x cos y cos z, v = -A cos x sin y cos z,
//                 w = 0; coordinates measured from the domain origin (a [0, 2 pi) box gives the classic vortex)
//   random        base velocity + A * h, h in [-1, 1] a counter-based hash of (global face index, seed, component),
//                 so the field is the same on any number of ranks
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

namespace eddy::time {

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

/// Fills the owned faces of u, v, w with the deck's initial condition (pressure set to zero).
void set_initial_velocity(const config::InitialConfig& initial, const grid::Decomposition& decomp,
                          const fields::FlowState& state);

}  // namespace eddy::time
