#include "core/error.hpp"
#include "solver/colour_stencil.hpp"
#include "solver/phased_sweep.hpp"
#include "solver/red_black.hpp"
#include "solver/sweep_team.hpp"

#include <limits>

namespace eddy::solver {
namespace {

// The fused sweep's tile of x-y columns (tx by ty cells) and its scratch ring of first-colour planes (the tile plus a
// one-cell rim). Only the first colour is stored, half a rim row per row: rim point a (-1 .. tx) sits at (a + 1) / 2,
// so neighbouring threads touch neighbouring words. A ring of four planes lets plane j be written while j - 3 .. j - 1
// are read: one barrier per plane.
template <int tx, int ty, int min_teams>
struct Tile {
  static constexpr int x = tx, y = ty, half = tx / 2, pairs = tx * ty / 2, rim = tx + ty;
  static constexpr int row_points = half + 1, plane_points = (ty + 2) * row_points, ring_planes = 4;
  static_assert(rim <= pairs, "each rim point of a plane needs a pair of the tile to compute it");
  static constexpr int threads = sweep_team_threads(pairs);  // one per pair of cells of a row
  // Launch bounds: room for `min_teams` teams per multiprocessor (four teams of 256 leave 64 registers a thread, what
  // the loads of a plane in flight together need; three ran slower on an H200).
  using Policy = SweepTeamPolicy<threads, min_teams>;
  /// Index of rim point (row c + 1, half-row point q) of plane `plane` (plane >= -ring_planes).
  static KOKKOS_INLINE_FUNCTION int at(int plane, int c, int q) {
    return ring_slot(plane, ring_planes) * plane_points + (c + 1) * row_points + q;
  }
};

// The values of a cell's update (six neighbours, the right-hand side, the old value where it blends), all loaded before
// any is used so that their loads are in flight together.
struct LoadedStencil {
  Real west = 0, east = 0, south = 0, north = 0, below = 0, above = 0, rhs = 0, old = 0;
  LoadedStencil() = default;
  KOKKOS_INLINE_FUNCTION LoadedStencil(const Real* centre, const Real* b, Strides s, bool z_active, bool blend)
      : west(centre[-1]), east(centre[1]), south(centre[-s.row]), north(centre[s.row]), rhs(*b) {
    if (blend) old = *centre;
    if (z_active) {
      below = centre[-s.plane];
      above = centre[s.plane];
    }
  }
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const {
    return di < 0 ? west : di > 0 ? east : dj < 0 ? south : dj > 0 ? north : dk < 0 ? below : above;
  }
};

// The first-colour neighbours, in the ring, of the second-colour cell of pair h (cells 2 h, 2 h + 1) of tile row c:
// its x neighbours are rim points h and h + 1 of the row, the others point h + second (its place in the pair) of the
// rows and planes around.
template <class T>
struct PairRing {
  const Real* ring;
  int here, below, above, second;  // rim point (c, h) in planes m, m - 1, m + 1
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const {
    if (di != 0) return ring[here + (di > 0)];
    if (dj != 0) return ring[here + second + dj * T::row_points];
    return ring[(dk < 0 ? below : above) + second];
  }
};

// The tile of SweepTile::x64_y8 and of the default, SweepTile::x64_y8_phased.
constexpr int default_tile_x = 64, default_tile_y = 8;

// Planes per team: up to `longest`, as many as keep at least a thousand teams (the rim planes at both ends are computed
// twice).
int planes_per_team(long long tiles, int nz, int longest = 32) {
  int chunk = longest;
  while (chunk > 2 && tiles * ((nz + chunk - 1) / chunk) < 1024) chunk /= 2;
  return chunk;
}

}  // namespace

bool fused_sweep_fits(const PoissonLevel& level) {
  const auto& n = level.shape.cells;
  return n[0] >= 2 && n[1] >= 2 && (level.decomp.global.dim == 2 || n[2] >= 2);
}

bool fused_sweep_pays_on(const PoissonLevel& level) {
  if (!fused_sweep_pays || !fused_sweep_fits(level)) return false;
  const auto& n = level.shape.cells;
  const long long tiles = static_cast<long long>((n[0] + default_tile_x - 1) / default_tile_x) *
                          ((n[1] + default_tile_y - 1) / default_tile_y);
  return level.decomp.global.dim == 2 || planes_per_team(tiles, n[2]) >= 16;
}

namespace {

// One pair's work in a team's step j: its first-colour cell of plane j (and one rim point for the first T::rim pairs)
// and its second-colour cell of plane m = j - 2, with their flat offsets from the tile's corner and ring indices.
struct PairStep {
  int li = 0, lj = 0, row = 0, a = 0, r = 0, h = 0, c = 0;
  int rli = 0, rlj = 0, rim_offset = 0, rim_ring = 0;
  int a2 = 0, li2 = 0;
  bool core = false, stored = false, edge = false, update = false;
};

// The global values a pair's step reads: the stencils of its first-colour cell and rim point, and the second-colour
// cell's right-hand side and old value.
struct PairLoads {
  LoadedStencil core, edge;
  Real rhs2 = 0, old2 = 0;
};

// Each pair of a tile row computes, per plane j, its first-colour cell (and one rim point for the first T::rim pairs)
// into the ring, and the second-colour cell of plane j - 2 from the ring; one barrier per plane. All global loads of
// a plane are issued before any of its values is used. The step's indices, loads and updates are written once each
// (step_of, core_load, edge_load, update): with the loop body written out in one piece the kernel spilled 40 bytes at
// its 64 registers and took 1.699-1.703 ms at 512^3 on an H200, against 1.614-1.618 (12 bytes spilled).
template <class T>
void fused_tiles(Field out_field, Field in_field, Field b_field, const ColourStencil& s, int first, int planes) {
  const Strides st = strides_of(out_field, {in_field, b_field});
  Real* out = out_field.data();
  const Real* in = in_field.data();
  const Real* b = b_field.data();
  const int g = s.ghost, nz = s.n[2];
  const int tiles_x = (s.n[0] + T::x - 1) / T::x, tiles_y = (s.n[1] + T::y - 1) / T::y;
  const int chunk = planes > 0 ? planes : planes_per_team(static_cast<long long>(tiles_x) * tiles_y, nz);
  const int per_chunk = tiles_x * tiles_y;
  const int teams = per_chunk * ((nz + chunk - 1) / chunk);
  if (teams == 0) return;
  const int first_parity = (first + s.offset_parity) & 1;
  const bool blend = s.blends();
  const std::size_t ring_bytes = T::ring_planes * T::plane_points * sizeof(Real);
  const auto policy = sweep_team_policy<T>(teams, ring_bytes);
  Kokkos::parallel_for(
      "poisson::rbgs_fused", Kokkos::Experimental::prefer(policy, resident_teams_occupancy<T>()),
      KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(team.team_scratch(0).get_shmem(ring_bytes));
        const auto [i0, j0, k0, k1] = team_tile(team.league_rank(), T::x, T::y, tiles_x, per_chunk, chunk, nz);
        // Cell (i0, j0, 0) of each field; per plane only the plane's offset and the colour's parity change.
        const long long corner = st.at(i0 + g, j0 + g, g);
        const Real* in_tile = in + corner;
        const Real* b_tile = b + corner;
        Real* out_tile = out + corner;
        const auto step_of = [&](int j, int p) {
          PairStep q;
          const int m = j - 2;
          const bool first_plane = j <= k1 && j >= 0 && j < nz;
          const int parity = (first_parity + j0 + j) & 1;  // the first colour of tile row c at a = parity + c mod 2
          q.c = p / T::half;
          q.h = p % T::half;
          q.lj = j0 + q.c;
          q.row = q.c * st.row;
          // The pair's first-colour cell of plane j (m has the same parity: its second colour is the other cell).
          q.r = (parity + q.c) & 1;
          q.a = 2 * q.h + q.r;
          q.li = i0 + q.a;
          q.core = first_plane && q.li < s.n[0] && q.lj < s.n[1];
          q.stored = j >= k0 && j < k1;
          // One rim point of plane j: rows -1 and ty inside the tile's x range, then one point beside each row.
          int rc = 0, rq = 0, ra = 0;
          if (p < T::x) {
            rc = p < T::half ? -1 : T::y;
            rq = p % T::half;
            ra = 2 * rq + ((parity + rc) & 1);
            rq += ra & 1;
          } else if (p < T::rim) {
            rc = p - T::x;
            const bool west = (parity + rc) & 1;
            ra = west ? -1 : T::x;
            rq = west ? 0 : T::half;
          }
          q.rli = i0 + ra;
          q.rlj = j0 + rc;
          q.rim_offset = rc * st.row + ra;
          q.rim_ring = (rc + 1) * T::row_points + rq;
          q.edge = first_plane && p < T::rim && q.rli >= 0 && q.rli < s.n[0] && q.rlj >= 0 && q.rlj < s.n[1];
          // The pair's second-colour cell of plane m.
          q.a2 = 2 * q.h + 1 - q.r;
          q.li2 = i0 + q.a2;
          q.update = m >= k0 && q.li2 < s.n[0] && q.lj < s.n[1] &&
                     (s.away_from_faces(q.li2, q.lj, m) || !s.on_shared_face(q.li2, q.lj, m));
          return q;
        };
        const auto core_load = [&](int j, const PairStep& q, PairLoads& l) {
          const long long zj = j * st.plane, zm = zj - 2 * st.plane;
          if (q.core)
            l.core = LoadedStencil(in_tile + zj + q.row + q.a, b_tile + zj + q.row + q.a, st, s.z_active, blend);
          if (q.update) {
            l.rhs2 = b_tile[zm + q.row + q.a2];
            if (blend) l.old2 = in_tile[zm + q.row + q.a2];
          }
        };
        const auto edge_load = [&](int j, const PairStep& q, PairLoads& l) {
          const long long zj = j * st.plane;
          if (q.edge) {
            l.edge = LoadedStencil(in_tile + zj + q.rim_offset, b_tile + zj + q.rim_offset, st, s.z_active, blend);
          }
        };
        const auto update = [&](int j, const PairStep& q, const PairLoads& l) {
          const int m = j - 2;
          const long long zj = j * st.plane, zm = zj - 2 * st.plane;
          const int ring_j = T::at(j, -1, 0), ring_m = T::at(m, -1, 0), ring_below = T::at(m - 1, -1, 0),
                    ring_above = T::at(m + 1, -1, 0);
          if (q.update) {
            const int here = (q.c + 1) * T::row_points + q.h;
            const PairRing<T> around{ring, ring_m + here, ring_below + here, ring_above + here, 1 - q.r};
            out_tile[zm + q.row + q.a2] = s.relaxed(around, l.rhs2, l.old2, q.li2, q.lj, m);
          }
          if (q.core) {
            const Real value = s.relaxed(l.core, l.core.rhs, l.core.old, q.li, q.lj, j);
            ring[ring_j + (q.c + 1) * T::row_points + q.h + q.r] = value;
            if (q.stored) out_tile[zj + q.row + q.a] = value;
          }
          if (q.edge) ring[ring_j + q.rim_ring] = s.relaxed(l.edge, l.edge.rhs, l.edge.old, q.rli, q.rlj, j);
        };
        for (int j = k0 - 1; j <= k1 + 1; ++j) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::pairs), [&](int p) {
            const PairStep q = step_of(j, p);
            PairLoads loaded;
            core_load(j, q, loaded);
            edge_load(j, q, loaded);
            update(j, q, loaded);
          });
          team.team_barrier();
        }
      });
}

// Planes per team of the sweep by phases: 16 ran the sweep 3-5% and the V-cycle 2.4-2.6% faster than 32 at 512^3 on an
// H100; on an H200 the two were within 3% of each other either way (tests/perf/RESULTS.md).
constexpr int longest_phased_chunk = 16;

// The fused sweep by phases (solver/phased_sweep.hpp); in 2D, or where a field holds 2^31 points or more, by pairs.
void fused_by_phases(Field out, Field in, Field b, const ColourStencil& s, int first, int planes) {
  using Pairs = Tile<default_tile_x, default_tile_y, 4>;
  const bool fits = s.z_active && in.span() < static_cast<std::size_t>(std::numeric_limits<int>::max());
  if (!fits) return fused_tiles<Pairs>(out, in, b, s, first, planes);
  const long long tiles = static_cast<long long>((s.n[0] + default_tile_x - 1) / default_tile_x) *
                          ((s.n[1] + default_tile_y - 1) / default_tile_y);
  sweep_by_phases(out, in, b, s, first, planes > 0 ? planes : planes_per_team(tiles, s.n[2], longest_phased_chunk));
}

}  // namespace

void fused_sweep_interior(Field out, Field in, Field b, const PoissonLevel& level, int first, Real relaxation,
                          int planes, SweepTile tile) {
  const ColourStencil s = colour_stencil(level, relaxation);
  switch (tile) {
    case SweepTile::x64_y8:
      return fused_tiles<Tile<default_tile_x, default_tile_y, 4>>(out, in, b, s, first, planes);
    case SweepTile::x64_y4:
      return fused_tiles<Tile<64, 4, 8>>(out, in, b, s, first, planes);
    case SweepTile::x64_y16:
      return fused_tiles<Tile<64, 16, 2>>(out, in, b, s, first, planes);
    case SweepTile::x64_y8_phased:
      return fused_by_phases(out, in, b, s, first, planes);
  }
}

const char* describe(SweepTile tile) {
  static constexpr const char* names[] = {"64x8 phased", "64x8", "64x4", "64x16"};
  return names[static_cast<int>(tile)];
}

}  // namespace eddy::solver
