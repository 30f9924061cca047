#pragma once
// What the fused sweeps' team kernels share (solver/red_black_tiles.cpp): how many threads a team
// takes, its policy, and where a plane sits in a ring of planes in team scratch.
#include "core/types.hpp"

#include <cstddef>

namespace eddy::solver {

/// Threads of a team with `work` items a plane: one per item in whole warps on GPUs, one looping over all on CPUs.
constexpr int sweep_team_threads(int work) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return (work + 31) / 32 * 32;
#else
  (void)work;
  return 1;
#endif
}

/// A sweep's team policy with room for `min_teams` teams of `threads` per multiprocessor.
template <int threads, int min_teams>
using SweepTeamPolicy =
    Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;

/// The policy of `teams` teams of a sweep's tile type T, each with `ring_bytes` of team scratch for its ring of planes.
template <class T>
typename T::Policy sweep_team_policy(int teams, std::size_t ring_bytes) {
  typename T::Policy policy(teams, T::threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(ring_bytes));
  return policy;
}

/// The occupancy of a multiprocessor full of T's resident teams (its launch bounds' minimum): asked for at launch so
/// that the driver gives shared memory only what those teams need and leaves the rest to L1.
template <class T>
Kokkos::Experimental::DesiredOccupancy resident_teams_occupancy() {
  constexpr int threads_per_multiprocessor = 2048;
  constexpr int percent = T::Policy::launch_bounds::minBperSM * T::threads * 100 / threads_per_multiprocessor;
  return Kokkos::Experimental::DesiredOccupancy(percent < 1 ? 1 : (percent > 100 ? 100 : percent));
}

/// A team's tile: its corner cell (i0, j0) and its z planes [k0, k1).
struct TeamTile {
  int i0, j0, k0, k1;
};

/// The tile of team `team` of a sweep by tiles of tx x ty cells, `tiles_x` along x and `per_chunk` a plane, with
/// `chunk` of the `nz` planes per team: teams run tile by tile of a chunk of planes, chunk after chunk.
KOKKOS_INLINE_FUNCTION TeamTile team_tile(int team, int tx, int ty, int tiles_x, int per_chunk, int chunk, int nz) {
  const int tile = team % per_chunk, k0 = team / per_chunk * chunk;
  return {tile % tiles_x * tx, tile / tiles_x * ty, k0, k0 + chunk < nz ? k0 + chunk : nz};
}

/// The slot of plane `plane` (>= -ring_planes) in a ring of `ring_planes` planes (a power of two).
KOKKOS_INLINE_FUNCTION constexpr int ring_slot(int plane, int ring_planes) {
  return (plane + ring_planes) & (ring_planes - 1);
}

}  // namespace eddy::solver
