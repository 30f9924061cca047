#include "core/async_copy.hpp"
#include "core/error.hpp"
#include "grid/pair_columns.hpp"
#include "solver/laplacian.hpp"

#include <string>

namespace eddy::solver {
namespace {

// A tile of tx cells (tx / 2 aligned pairs) by ty rows with a rim of one pair in x and one row in y, and a ring of
// `ring` such planes in team scratch, and at least `min_teams` teams resident per multiprocessor (0: as many as the
// registers allow). While plane k is computed from k - 1 .. k + 1, the copies of planes
// k + 2 .. k + ahead are in flight; one barrier per plane. Plane k + ahead goes where k - 3 was, which every thread
// has finished reading before it passed the barrier of plane k - 1.
template <int tx, int ty, int ring, int min_teams>
struct PlaneTile {
  static constexpr int x = tx, y = ty, pairs = tx / 2 * ty, row = tx / 2 + 2, plane = (tx / 2 + 2) * (ty + 2);
  static constexpr int ring_planes = ring, ahead = ring - 3;
  static_assert(tx % 2 == 0 && ahead >= 1, "tiles of whole pairs; the ring holds the three planes read and the next");
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  static constexpr int threads = pairs < 256 ? pairs : 256, scratch_level = 0;
#else
  static constexpr int threads = 1, scratch_level = 1;  // level 0 holds 32 KiB on CPUs
#endif
  static_assert(pairs % threads == 0, "every thread takes the same number of pairs");
  static constexpr int mine = pairs / threads, copies = (plane + threads - 1) / threads;
  static constexpr std::size_t ring_bytes = sizeof(RealPair) * ring_planes * plane;
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;
};

// Planes per team: as many as keep at least two thousand teams (the rim planes at both ends are staged twice).
int planes_per_team(long long tiles, int nz) {
  int chunk = 64;
  while (chunk > 4 && tiles * ((nz + chunk - 1) / chunk) < 2048) chunk /= 2;
  return chunk;
}

template <class T>
void laplacian_tiles(Field out_field, Field phi_field, Field rhs_field, const fields::LocalShape& shape,
                     const StencilWeights& w, int planes) {
  const int g = shape.ghost, ex = shape.extent(0), ey = shape.extent(1);
  const int sy = ex, sz = ex * ey, half_sz = sz / 2;
  const auto& n = shape.cells;
  const int lo_x = g / 2 * 2, x_end = g + n[0], y_end = g + n[1], z_end = g + n[2];
  const int tiles_x = (x_end - lo_x + T::x - 1) / T::x, tiles_y = (n[1] + T::y - 1) / T::y;
  const int chunk = planes > 0 ? planes : planes_per_team(static_cast<long long>(tiles_x) * tiles_y, n[2]);
  const long long teams = static_cast<long long>(tiles_x) * tiles_y * ((n[2] + chunk - 1) / chunk);
  require(teams < (1LL << 31), "laplacian_by_tiles: " + std::to_string(teams) + " teams are beyond 2^31");
  const auto* __restrict__ phi = reinterpret_cast<const RealPair*>(phi_field.data());
  const auto* __restrict__ rhs = reinterpret_cast<const RealPair*>(rhs_field.data());
  Real* __restrict__ out = out_field.data();
  const std::size_t ring_bytes = T::ring_bytes;
  typename T::Policy policy(static_cast<int>(teams), T::threads);
  policy.set_scratch_size(T::scratch_level, Kokkos::PerTeam(ring_bytes));
  Kokkos::parallel_for(
      "poisson::laplacian_by_tiles", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        auto* ring =
            static_cast<RealPair*>(team.team_scratch(static_cast<int>(T::scratch_level)).get_shmem(ring_bytes));
        const int tile = team.league_rank(), rank = team.team_rank();
        const int i0 = lo_x + tile % tiles_x * T::x, j0 = g + tile / tiles_x % tiles_y * T::y;
        const int k0 = g + tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < z_end ? k0 + chunk : z_end;
        const auto slot = [&](int k) { return ring + (k - k0 + 1) % T::ring_planes * T::plane; };
        // The pairs of the tile and its rim this thread copies, as offsets in a plane of phi (-1: outside the view,
        // never read for an owned cell).
        int from[T::copies];
        for (int s = 0; s < T::copies; ++s) {
          const int e = rank + s * T::threads, i = i0 - 2 + 2 * (e % T::row), j = j0 - 1 + e / T::row;
          from[s] = e < T::plane && i >= 0 && i < ex && j < ey ? (i + sy * j) / 2 : -1;
        }
        // Starts the copies of plane k, one group per plane (empty past the team's last plane).
        const auto stage = [&](int k) {
          if (k <= k1) {
            RealPair* to = slot(k) + rank;
            const RealPair* plane = phi + half_sz * k;
            for (int s = 0; s < T::copies; ++s) {
              if (from[s] >= 0) copy_pair_to_scratch(to + s * T::threads, plane + from[s]);
            }
          }
          commit_scratch_copies();
        };
        for (int k = k0 - 1; k < k0 + T::ahead; ++k) stage(k);
        RealPair b[T::mine] = {};  // the right-hand side at the thread's pairs of plane k, loaded a plane ahead
        const auto load_rhs = [&](int k) {
          if (rhs == nullptr || k >= k1) return;
          for (int q = 0; q < T::mine; ++q) {
            const int e = rank + q * T::threads, i = i0 + 2 * (e % (T::x / 2)), j = j0 + e / (T::x / 2);
            if (i < x_end && j < y_end) b[q] = rhs[(i + sy * j + sz * k) / 2];
          }
        };
        load_rhs(k0);
        for (int k = k0; k < k1; ++k) {
          stage(k + T::ahead);
          wait_for_scratch_copies<T::ahead - 1>();  // planes up to k + 1 have landed
          team.team_barrier();
          const RealPair *below = slot(k - 1), *here = slot(k), *above = slot(k + 1);
          RealPair now[T::mine];
          for (int q = 0; q < T::mine; ++q) now[q] = b[q];
          load_rhs(k + 1);
          for (int q = 0; q < T::mine; ++q) {
            const int e = rank + q * T::threads, pi = e % (T::x / 2), pj = e / (T::x / 2);
            const int i = i0 + 2 * pi, j = j0 + pj;
            const bool first_in = i >= g && i < x_end, second_in = i + 1 >= g && i + 1 < x_end;
            if (j >= y_end || !(first_in || second_in)) continue;
            const int c = pi + 1 + T::row * (pj + 1);
            const RealPair centre = here[c], south = here[c - T::row], north = here[c + T::row];
            const RealPair down = below[c], up = above[c];
            const Real west = here[c - 1].odd, east = here[c + 1].even;
            RealPair r;
            r.even = w.x * (west + centre.odd) + w.y * (south.even + north.even) + w.z * (down.even + up.even) +
                     w.diagonal() * centre.even;
            r.odd = w.x * (centre.even + east) + w.y * (south.odd + north.odd) + w.z * (down.odd + up.odd) +
                    w.diagonal() * centre.odd;
            if (rhs != nullptr) {
              r.even = now[q].even - r.even;
              r.odd = now[q].odd - r.odd;
            }
            grid::store_pair(out, i + sy * j + sz * k, r, first_in, second_in);
          }
        }
      });
}

}  // namespace

void laplacian_by_tiles(Field out, Field phi, Field rhs, const fields::LocalShape& shape, const StencilWeights& w,
                        PlaneTiling tiling) {
  require(grid::fits_cell_pairs(shape, {out, phi, rhs}),
          "laplacian_by_tiles: rows of odd length or fields not aligned to pairs of values");
  require(w.z != 0 && shape.cells[2] > 0, "laplacian_by_tiles: a 3D stencil");
  const auto is = [&](int x, int y, int ring, int teams) {
    return tiling.x == x && tiling.y == y && tiling.ring == ring && tiling.min_teams == teams;
  };
  const int planes = tiling.planes;
  if (is(64, 8, 6, 0)) return laplacian_tiles<PlaneTile<64, 8, 6, 0>>(out, phi, rhs, shape, w, planes);
  if (is(64, 8, 5, 0)) return laplacian_tiles<PlaneTile<64, 8, 5, 0>>(out, phi, rhs, shape, w, planes);
  if (is(64, 8, 4, 0)) return laplacian_tiles<PlaneTile<64, 8, 4, 0>>(out, phi, rhs, shape, w, planes);
  if (is(128, 4, 6, 5)) return laplacian_tiles<PlaneTile<128, 4, 6, 5>>(out, phi, rhs, shape, w, planes);
  throw Error("laplacian_by_tiles: no tile of " + std::to_string(tiling.x) + " x " + std::to_string(tiling.y) +
              " cells with a ring of " + std::to_string(tiling.ring) + " planes and " +
              std::to_string(tiling.min_teams) + " teams per multiprocessor");
}

}  // namespace eddy::solver
