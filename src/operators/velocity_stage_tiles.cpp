// The tuned form of the velocity stage (operators/velocity_stage.hpp), and the choice between the two forms.
#include "core/error.hpp"
#include "device/async_copy.hpp"
#include "operators/velocity_stage.hpp"
#include "operators/velocity_stage_point.hpp"

namespace eddy::operators {
namespace {

// Three staged planes of one field (below, at and above the tile's plane) read at stencil indices (i, j, k): i and j
// count from the rim's corner, k is 0, 1 or 2.
struct StagedPlanes {
  const Real *below, *here, *above;
  int row;
  KOKKOS_INLINE_FUNCTION Real operator()(int i, int j, int k) const {
    return (k == 0 ? below : k == 1 ? here : above)[i + j * row];
  }
};

// A tile of 32 x 6 points with a one-point rim, and a ring of five planes per field: while plane k is computed from
// k - 1 .. k + 1, the copy of plane k + 2 is in flight (a ring of four would wait for the copy of the plane above as
// soon as it had started it); one barrier per plane. Plane k + ahead goes where k - 3 was, which every thread has
// finished reading before it passed the barrier of plane k - 1. At least four teams of 192 threads per multiprocessor
// leave a thread enough registers to hold a point's 27 neighbours without spills: larger tiles at that occupancy
// spilled, and the other tilings and rings ran the stage forms slower (measured in tests/perf/RESULTS.md).
struct Tile {
  static constexpr int x = 32, y = 6, points = x * y, row = x + 2, plane_points = row * (y + 2);
  static constexpr int ring_planes = 5, ahead = ring_planes - 3, fields = 3, min_teams = 4;
  static_assert(ahead >= 1, "the ring holds the three planes read and at least the next one");
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  static constexpr int threads = points, scratch_level = 0;  // one per point of the tile, the ring in shared memory
#else
  static constexpr int threads = 1, scratch_level = 1;  // level 0 holds 32 KiB on CPUs
#endif
  static constexpr int mine = points / threads;  // points of a plane per thread
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;
  static constexpr std::size_t ring_bytes = sizeof(Real) * fields * ring_planes * plane_points;
  /// Offset of plane `k` (k >= -1) of field `f` in the ring.
  static KOKKOS_INLINE_FUNCTION int at(int f, int k) {
    return (f * ring_planes + (k + ring_planes) % ring_planes) * plane_points;
  }
};

// Planes per team: as many as keep at least two thousand teams (the rim planes at both ends are staged twice).
int planes_per_team(long long tiles, int nz) {
  int chunk = 64;
  while (chunk > 4 && tiles * ((nz + chunk - 1) / chunk) < 2048) chunk /= 2;
  return chunk;
}

template <class Flux, bool Blend>
void stage_by_tiles(const fields::FlowState& state, const StagePoint& point, const Int3& extent, int planes) {
  using T = Tile;
  require(share_one_shape(state.u, {state.u, state.v, state.w}) &&
              state.u.stride(1) == static_cast<std::size_t>(point.row) &&
              state.u.stride(2) == static_cast<std::size_t>(point.plane),
          "velocity_stage_by_tiles: the velocity and the stage's targets differ in shape");
  const Real *u = state.u.data(), *v = state.v.data(), *w = state.w.data();
  const int ex = extent[0], ey = extent[1], ez = extent[2];
  const bool three_d = point.three_d;
  const int tiles_x = (ex + T::x - 1) / T::x, tiles_y = (ey + T::y - 1) / T::y;
  const int chunk = planes > 0 ? planes : planes_per_team(static_cast<long long>(tiles_x) * tiles_y, ez);
  const int teams = tiles_x * tiles_y * ((ez + chunk - 1) / chunk);
  const std::size_t ring_bytes = T::ring_bytes;
  typename T::Policy policy(teams, T::threads);
  policy.set_scratch_size(T::scratch_level, Kokkos::PerTeam(ring_bytes + sizeof(Real)));
  Kokkos::parallel_for(
      "rk::momentum_stage_tiles", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(
            team.team_scratch(static_cast<int>(T::scratch_level)).get_shmem_aligned(ring_bytes, sizeof(Real)));
        const int tile = team.league_rank();
        const int i0 = tile % tiles_x * T::x, j0 = tile / tiles_x % tiles_y * T::y;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < ez ? k0 + chunk : ez;
        const int rank = team.team_rank();
        // Starts the copies of plane k of the tile and its rim into the ring, one group per plane (empty past the
        // team's last plane). Points outside the view are never read.
        const auto stage = [&](int k) {
          if (k >= 0 && k < ez && k <= k1) {
            for (int e = rank; e < T::plane_points; e += T::threads) {
              const int i = i0 - 1 + e % T::row, j = j0 - 1 + e / T::row;
              if (i < 0 || i >= ex || j < 0 || j >= ey) continue;
              const int o = point.offset(i, j, k);
              device::copy_to_scratch(ring + T::at(0, k) + e, u + o);
              device::copy_to_scratch(ring + T::at(1, k) + e, v + o);
              if (three_d) device::copy_to_scratch(ring + T::at(2, k) + e, w + o);
            }
          }
          device::commit_scratch_copies();
        };
        for (int k = k0 - 1; k < k0 + T::ahead; ++k) stage(k);
        // What earlier stages carry into the thread's points of plane k, loaded a plane ahead (a global load inside the
        // plane's compute would stall it).
        StagePoint::Carried carried[T::mine];
        const auto load_carried = [&](int k) {
          for (int q = 0; q < T::mine; ++q) {
            const int e = rank + q * T::threads, i = i0 + e % T::x, j = j0 + e / T::x;
            carried[q] = i < ex && j < ey && k < k1 ? point.template carried_at<Blend>(i, j, k) : StagePoint::Carried{};
          }
        };
        load_carried(k0);
        for (int k = k0; k < k1; ++k) {
          stage(k + T::ahead);
          device::wait_for_scratch_copies<T::ahead - 1>();  // planes up to k + 1 have landed
          team.team_barrier();
          const StagedPlanes su{ring + T::at(0, k - 1), ring + T::at(0, k), ring + T::at(0, k + 1), T::row};
          const StagedPlanes sv{ring + T::at(1, k - 1), ring + T::at(1, k), ring + T::at(1, k + 1), T::row};
          const StagedPlanes sw{ring + T::at(2, k - 1), ring + T::at(2, k), ring + T::at(2, k + 1), T::row};
          for (int q = 0; q < T::mine; ++q) {
            const int e = rank + q * T::threads, li = e % T::x, lj = e / T::x, i = i0 + li, j = j0 + lj;
            const StagePoint::Carried now = carried[q];
            carried[q] =
                i < ex && j < ey && k + 1 < k1 ? point.template carried_at<Blend>(i, j, k + 1) : StagePoint::Carried{};
            if (i < ex && j < ey) {  // each neighbour loaded once, which the 80 registers a thread allow
              point.template operator()<Flux, Blend, true>(su, sv, sw, li + 1, lj + 1, 1, i, j, k, now);
            }
          }
        }
      });
}

}  // namespace

void velocity_stage_by_tiles(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                             config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights,
                             int planes_per_team) {
  const StagePoint point(targets, grid, viscosity, weights);
  with_stage_form(scheme, weights, [&](auto flux, auto blend) {
    stage_by_tiles<decltype(flux), decltype(blend)::value>(state, point, view_extent(grid), planes_per_team);
  });
}

void velocity_stage(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                    config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  velocity_stage_by_tiles(state, targets, grid, scheme, viscosity, weights);
#else
  velocity_stage_by_rows(state, targets, grid, scheme, viscosity, weights);
#endif
}

}  // namespace eddy::operators
