#include "time/fused_stage.hpp"

#include "core/async_copy.hpp"
#include "core/bulk_copy.hpp"
#include "core/error.hpp"
#include "fields/flat_field.hpp"
#include "grid/cell_loops.hpp"
#include "operators/momentum_tendency.hpp"
#include "time/stage_point.hpp"
#include "time/stage_tiling_choice.hpp"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>

namespace eddy::time {
namespace {

template <bool Upwind, bool Blend>
void stage_by_points(const fields::FlowState& state, const StagePoint& point, const Int3& extent) {
  const fields::FlatField u(state.u), v(state.v), w(state.w);
  grid::for_each_box_point(
      "rk::momentum_stage", {0, 0, 0}, extent, KOKKOS_LAMBDA(int i, int j, int k) {
        point.template operator()<Upwind, Blend>(u, v, w, i, j, k, i, j, k, point.template carried_at<Blend>(i, j, k));
      });
}

// Three staged planes of one field (below, at and above the tile's plane) read at stencil indices (i, j, k): i and j
// count from the rim's corner, k is 0, 1 or 2.
struct StagedPlanes {
  const Real *below, *here, *above;
  int row;
  KOKKOS_INLINE_FUNCTION Real operator()(int i, int j, int k) const {
    return (k == 0 ? below : k == 1 ? here : above)[i + j * row];
  }
};

// How a tile's planes reach team scratch: a copy per value; a copy per aligned pair of values (16 bytes, past L1); or
// a bulk copy per row of the plane by the copy engine (core/bulk_copy.hpp), its bytes counted on an arrival barrier
// per ring plane.
enum class Staging { values, pairs, rows };

// A tile of tx x ty points with a one-point rim, and a ring of `ring` planes per field; at least `min_teams` teams
// resident per multiprocessor (0: as many as the registers the compiler takes allow). While plane k is computed from
// k - 1 .. k + 1, the copies of planes k + 2 .. k + ahead are in flight; one barrier per plane. Plane k + ahead goes
// where k - 3 was, which every thread has finished reading before it passed the barrier of plane k - 1. Staged by
// pairs or rows, the rows start two points before the tile, so that every copy is 16-byte aligned: the rim is two
// points wide along x. It takes 5% more scratch per team, and whether it pays depends on the stage form and the GPU
// (time/stage_tiling_choice.hpp).
template <int tx, int ty, int ring, int min_teams = 0, Staging staging = Staging::values>
struct Tile {
  static constexpr bool pairs = staging == Staging::pairs, rows = staging == Staging::rows;
  static constexpr bool wide_rim = staging != Staging::values;
  static constexpr int rim_x = wide_rim ? 2 : 1;  // staged points before the tile's first column, as many after
  static constexpr int x = tx, y = ty, points = tx * ty, row = tx + 2 * rim_x;
  static constexpr int plane_points = row * (ty + 2);
  static constexpr int ring_planes = ring, ahead = ring - 3, fields = 3;
  static_assert(ahead >= 1, "the ring holds the three planes read and at least the next one");
  static_assert(!wide_rim || (tx % 2 == 0 && row % 2 == 0), "pairs need tiles and staged rows of even length");
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

template <class T, bool Upwind, bool Blend>
void stage_by_tiles(const fields::FlowState& state, const StagePoint& point, const Int3& extent, int planes) {
  require(share_one_shape(state.u, {state.u, state.v, state.w}) &&
              state.u.stride(1) == static_cast<std::size_t>(point.row) &&
              state.u.stride(2) == static_cast<std::size_t>(point.plane),
          "fused_stage_by_tiles: the velocity and the stage's targets differ in shape");
  const Real *u = state.u.data(), *v = state.v.data(), *w = state.w.data();
  const int ex = extent[0], ey = extent[1], ez = extent[2];
  const bool three_d = point.three_d;
  const int tiles_x = (ex + T::x - 1) / T::x, tiles_y = (ey + T::y - 1) / T::y;
  const int chunk = planes > 0 ? planes : planes_per_team(static_cast<long long>(tiles_x) * tiles_y, ez);
  const int teams = tiles_x * tiles_y * ((ez + chunk - 1) / chunk);
  const std::size_t ring_bytes = T::ring_bytes;
  const int level = T::scratch_level;
  typename T::Policy policy(teams, T::threads);
  const std::size_t barrier_bytes = T::rows ? sizeof(ArrivalBarrier) * T::ring_planes : 0;
  policy.set_scratch_size(level, Kokkos::PerTeam(ring_bytes + barrier_bytes + sizeof(RealPair)));
  Kokkos::parallel_for(
      "rk::momentum_stage_tiles", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(team.team_scratch(static_cast<int>(T::scratch_level))
                                            .get_shmem_aligned(ring_bytes + barrier_bytes, sizeof(RealPair)));
        ArrivalBarrier* arrivals = reinterpret_cast<ArrivalBarrier*>(ring + ring_bytes / sizeof(Real));
        const int tile = team.league_rank();
        const int i0 = tile % tiles_x * T::x, j0 = tile / tiles_x % tiles_y * T::y;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < ez ? k0 + chunk : ez;
        // Starts the copies of plane k of the tile and its rim into the ring, one group per plane (empty past the
        // team's last plane). Points outside the view are never read.
        const int rank = team.team_rank();
        // With bulk copies: barrier use of plane k (k >= k0 - 1) in the ring; the first planes are each slot's use 0.
        const auto arrival = [&](int k) { return arrivals + (k + T::ring_planes) % T::ring_planes; };
        const auto use = [&](int k) { return (k - k0 + 1) / T::ring_planes; };
        const auto stage = [&](int k) {
          if (T::rows) {
            // One copy per row of the plane and field that lies in the view, [lo, hi) along x (even ends), announced
            // on the plane's barrier by the team's first thread (0 bytes past the team's last plane).
            const bool in = k >= 0 && k < ez && k <= k1;
            const int lo = i0 - 2 > 0 ? i0 - 2 : 0, hi = i0 + T::x + 2 < ex ? i0 + T::x + 2 : ex;
            const int jlo = j0 - 1 > 0 ? j0 - 1 : 0, jhi = j0 + T::y + 1 < ey ? j0 + T::y + 1 : ey;
            const int fields = three_d ? 3 : 2, copies = in ? (jhi - jlo) * fields : 0;
            const unsigned row_bytes = static_cast<unsigned>(sizeof(Real) * (hi - lo));
            if (rank == 0) announce_bytes(arrival(k), static_cast<unsigned>(copies) * row_bytes);
            for (int q = rank; q < copies; q += T::threads) {
              const int f = q % fields, j = jlo + q / fields;
              const Real* from = (f == 0 ? u : f == 1 ? v : w) + point.offset(lo, j, k);
              bulk_copy_to_scratch(ring + T::at(f, k) + (j - j0 + 1) * T::row + (lo - i0 + 2), from, row_bytes,
                                   arrival(k));
            }
            return;
          }
          if (T::pairs && k >= 0 && k < ez && k <= k1) {
            for (int e = 2 * rank; e < T::plane_points; e += 2 * T::threads) {
              const int i = i0 - 2 + e % T::row, j = j0 - 1 + e / T::row;  // i even: a pair lies in the view or not
              if (i < 0 || i >= ex || j < 0 || j >= ey) continue;
              const int o = point.offset(i, j, k);
              copy_pair_to_scratch(ring + T::at(0, k) + e, u + o);
              copy_pair_to_scratch(ring + T::at(1, k) + e, v + o);
              if (three_d) copy_pair_to_scratch(ring + T::at(2, k) + e, w + o);
            }
          } else if (k >= 0 && k < ez && k <= k1) {
            for (int e = rank; e < T::plane_points; e += T::threads) {
              const int i = i0 - 1 + e % T::row, j = j0 - 1 + e / T::row;
              if (i < 0 || i >= ex || j < 0 || j >= ey) continue;
              const int o = point.offset(i, j, k);
              copy_to_scratch(ring + T::at(0, k) + e, u + o);
              copy_to_scratch(ring + T::at(1, k) + e, v + o);
              if (three_d) copy_to_scratch(ring + T::at(2, k) + e, w + o);
            }
          }
          commit_scratch_copies();
        };
        if (T::rows) {
          if (rank == 0) {
            for (int slot = 0; slot < T::ring_planes; ++slot) init_arrival_barrier(arrivals + slot);
          }
          team.team_barrier();
        }
        for (int k = k0 - 1; k < k0 + T::ahead; ++k) stage(k);
        if (T::rows) {
          wait_for_arrival(arrival(k0 - 1), use(k0 - 1));
          wait_for_arrival(arrival(k0), use(k0));
        }
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
          if (T::rows) {
            order_scratch_reads_before_bulk_copies();
            stage(k + T::ahead);
            wait_for_arrival(arrival(k + 1), use(k + 1));
          } else {
            stage(k + T::ahead);
            wait_for_scratch_copies<T::ahead - 1>();  // planes up to k + 1 have landed
          }
          team.team_barrier();
          const StagedPlanes su{ring + T::at(0, k - 1), ring + T::at(0, k), ring + T::at(0, k + 1), T::row};
          const StagedPlanes sv{ring + T::at(1, k - 1), ring + T::at(1, k), ring + T::at(1, k + 1), T::row};
          const StagedPlanes sw{ring + T::at(2, k - 1), ring + T::at(2, k), ring + T::at(2, k + 1), T::row};
          for (int q = 0; q < T::mine; ++q) {
            const int e = rank + q * T::threads, li = e % T::x, lj = e / T::x, i = i0 + li, j = j0 + lj;
            const StagePoint::Carried now = carried[q];
            carried[q] =
                i < ex && j < ey && k + 1 < k1 ? point.template carried_at<Blend>(i, j, k + 1) : StagePoint::Carried{};
            if (i < ex && j < ey) {  // every tiling loads each neighbour once, so that all give the same bits
              point.template operator()<Upwind, Blend, true>(su, sv, sw, li + T::rim_x, lj + 1, 1, i, j, k, now);
            }
          }
        }
        if (T::rows) {  // every copy has landed: the planes staged past k1 received none
          team.team_barrier();
          if (rank == 0) {
            for (int slot = 0; slot < T::ring_planes; ++slot) retire_arrival_barrier(arrivals + slot);
          }
        }
      });
}

// Whether the velocity's rows can be staged by aligned pairs: rows of an even number of points and an even stride,
// every component aligned to pairs of values.
bool stages_by_pairs(const fields::FlowState& state, const StagePoint& point, const Int3& extent) {
  const auto aligned = [](const Field& f) {
    return reinterpret_cast<std::uintptr_t>(f.data()) % sizeof(RealPair) == 0;
  };
  return extent[0] % 2 == 0 && point.row % 2 == 0 && aligned(state.u) && aligned(state.v) && aligned(state.w);
}

template <bool Upwind, bool Blend>
void stage_by_tiles_of(const fields::FlowState& state, const StagePoint& point, const Int3& extent,
                       StageTiling tiling) {
  const bool pairs = tiling.pairs && stages_by_pairs(state, point, extent);
  const int planes = tiling.planes;
  const auto by_rows = [&](int ring) {
    return pairs && tiling.rows && tiling.x == 32 && tiling.y == 8 && tiling.ring == ring;
  };
  if (by_rows(4)) return stage_by_tiles<Tile<32, 8, 4, 4, Staging::rows>, Upwind, Blend>(state, point, extent, planes);
  if (by_rows(5)) return stage_by_tiles<Tile<32, 8, 5, 4, Staging::rows>, Upwind, Blend>(state, point, extent, planes);
  const auto is = [&](int x, int y, int ring) {
    return tiling.x == x && tiling.y == y && tiling.ring == ring && !pairs;
  };
  if (is(32, 4, 8)) return stage_by_tiles<Tile<32, 4, 8>, Upwind, Blend>(state, point, extent, planes);
  if (is(32, 4, 7)) return stage_by_tiles<Tile<32, 4, 7>, Upwind, Blend>(state, point, extent, planes);
  if (is(32, 4, 6)) return stage_by_tiles<Tile<32, 4, 6>, Upwind, Blend>(state, point, extent, planes);
  // Tiles of 32 x 6 with a ring of five: 192 threads and 32 KiB of scratch a team, four teams per multiprocessor, so
  // 80 registers a thread hold a point's 27 neighbours without spills. In the same runs on an H200 they ran Wray's
  // second stage 3-5%, its third 2-3% and the SSP RK3's first 3-6% faster than at five teams and 64 registers, where
  // the Laplacians reloaded 11 of those neighbours, Wray's first 0-1% faster and the SSP RK3's blending stage 2-5%
  // slower; a ring of six (38 KiB, 41 KiB staged by pairs) ran slower than five in every form (tests/perf/RESULTS.md).
  if (is(32, 6, 5)) return stage_by_tiles<Tile<32, 6, 5, 4>, Upwind, Blend>(state, point, extent, planes);
  // Tiles of 32 x 8: four teams of 256 per multiprocessor hold them to 64 registers. Loading each neighbour once, their
  // central forms spill 40-88 bytes a thread (sm_90) and ran 18-45% slower than 32 x 6 on an H200; they stay
  // candidates for other GPUs. Before that they did not spill (72 registers unbounded, three teams: 4.18 /
  // 4.59-4.71 / 3.47-3.51 ms against 4.25 / 4.92-4.97 / 3.78 for the three stages at 512^3 on an H200). The default
  // ring of four planes waits for the copy of the plane above as soon as it has started it; a ring of five (40 KiB)
  // keeps that copy in flight while a plane is computed. On an H200 five took 3.50 / 4.17 / 3.97 ms against 3.91 / 4.54
  // / 3.98, on an H100 4.54 / 5.62 / 4.08 against 4.39 / 5.19 / 4.12 (tests/perf/RESULTS.md), so a run chooses among
  // the two and the ring of five staged by pairs by timing (time/stage_tiling_choice.hpp).
  if (is(32, 8, 4)) return stage_by_tiles<Tile<32, 8, 4, 4>, Upwind, Blend>(state, point, extent, planes);
  if (is(32, 8, 5)) return stage_by_tiles<Tile<32, 8, 5, 4>, Upwind, Blend>(state, point, extent, planes);
  const auto by_pairs = [&](int ring) { return pairs && tiling.x == 32 && tiling.y == 8 && tiling.ring == ring; };
  if (by_pairs(4))
    return stage_by_tiles<Tile<32, 8, 4, 4, Staging::pairs>, Upwind, Blend>(state, point, extent, planes);
  if (by_pairs(5))
    return stage_by_tiles<Tile<32, 8, 5, 4, Staging::pairs>, Upwind, Blend>(state, point, extent, planes);
  throw Error("fused_stage_by_tiles: no tiling " + describe(tiling));
}

}  // namespace

std::string describe(const StageTiling& tiling) {
  return std::to_string(tiling.x) + "x" + std::to_string(tiling.y) + " ring " + std::to_string(tiling.ring) +
         (tiling.pairs ? (tiling.rows ? " by rows" : " by pairs") : "");
}

void fused_stage_by_points(const fields::FlowState& state, const StageTargets& targets,
                           const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                           const StageWeights& weights) {
  const StagePoint point(targets, grid, viscosity, weights);
  with_stage_form(scheme, weights, [&](auto upwind, auto blend) {
    stage_by_points<decltype(upwind)::value, decltype(blend)::value>(state, point, view_extent(grid));
  });
}

void fused_stage_by_tiles(const fields::FlowState& state, const StageTargets& targets,
                          const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                          const StageWeights& weights, StageTiling tiling) {
  const StagePoint point(targets, grid, viscosity, weights);
  with_stage_form(scheme, weights, [&](auto upwind, auto blend) {
    stage_by_tiles_of<decltype(upwind)::value, decltype(blend)::value>(state, point, view_extent(grid), tiling);
  });
}

void fused_stage(const fields::FlowState& state, const StageTargets& targets, const operators::StaggeredGrid& grid,
                 config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights,
                 StageTilingChoice* choice) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if (choice == nullptr) return fused_stage_by_tiles(state, targets, grid, scheme, viscosity, weights);
  choice->run(weights, scheme, [&](const StageTiling& tiling) {
    fused_stage_by_tiles(state, targets, grid, scheme, viscosity, weights, tiling);
  });
#else
  (void)choice;
  fused_stage_by_rows(state, targets, grid, scheme, viscosity, weights);
#endif
}

}  // namespace eddy::time
