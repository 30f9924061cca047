// The fused red-black sweep (solver/red_black.hpp) of a block by teams of 64 x 8 x-y columns, each team marching a
// chunk of z planes with the first colour of the last planes in a ring in team scratch: by phases in 3D, by pairs of
// cells in 2D.
#include "solver/colour_stencil.hpp"
#include "solver/red_black.hpp"
#include "solver/sweep_team.hpp"

#include <limits>

namespace eddy::solver {
namespace {

// The x-y extent of a team's tile, in cells, in both forms.
constexpr int tile_x = 64, tile_y = 8;

// Tiles of a plane of nx x ny cells.
long long tile_count(int nx, int ny) {
  return static_cast<long long>((nx + tile_x - 1) / tile_x) * ((ny + tile_y - 1) / tile_y);
}

// Planes per team: up to `longest`, as many as keep at least a thousand teams (the rim planes at both ends are computed
// twice).
int planes_per_team(long long tiles, int nz, int longest = 32) {
  int chunk = longest;
  while (chunk > 2 && tiles * ((nz + chunk - 1) / chunk) < 1024) chunk /= 2;
  return chunk;
}

// A team's tile of tx x ty cells: one thread per pair of cells of the tile and its rim (the first phase), and its ring
// of the first colour of four planes, one value per pair.
template <int tx, int ty, int min_teams>
struct PhasedTile {
  static constexpr int x = tx, y = ty, half = tx / 2, pairs = half * ty, row_slots = half + 2;
  static constexpr int slots = row_slots * (ty + 2), ring_planes = 4;
  static constexpr int threads = sweep_team_threads(slots);
  using Policy = SweepTeamPolicy<threads, min_teams>;
  /// Ring index of the first colour of pair h (-1 .. half) of tile row c (-1 .. ty) in plane `plane` (>= -4).
  static KOKKOS_INLINE_FUNCTION int at(int plane, int c, int h) {
    return ring_slot(plane, ring_planes) * slots + (c + 1) * row_slots + h + 1;
  }
};

// The 3D sweep by phases: per plane j, every thread computes the first colour of one pair of cells of plane j, over the
// tile and a rim of one pair along x and one row along y, into a ring of four planes in team scratch; then, after one
// barrier, the tile's pairs compute their second colour of plane j - 1 from the ring and store both cells. A pair's
// second-colour cell has its first-colour neighbours at its own place in the rows and planes around it (the colours
// alternate), so the ring holds one value per pair. Cells away from the x and y faces take a short path that tests only
// the z faces of their plane (a folded one changes the diagonal, a shared one leaves the plane's second colour to
// sweep_shared_faces); the others take the general stencil. With 40 registers a thread, four teams of 352 threads fit
// a multiprocessor. The fields' points are addressed by int offsets.
template <class T>
void phased_tiles(Field out_field, Field in_field, Field b_field, const ColourStencil& s, int first, int chunk) {
  const Strides st = strides_of(out_field, {in_field, b_field});
  Real* out = out_field.data();
  const Real* in = in_field.data();
  const Real* b = b_field.data();
  const int g = s.ghost, nx = s.n[0], ny = s.n[1], nz = s.n[2], row = st.row, plane = static_cast<int>(st.plane);
  const int tiles_x = (nx + T::x - 1) / T::x, per_chunk = tiles_x * ((ny + T::y - 1) / T::y);
  const int teams = per_chunk * ((nz + chunk - 1) / chunk);
  if (teams == 0) return;
  const int first_parity = (first + s.offset_parity) & 1;
  const bool blend = s.blends();
  const Real wx = s.w.x, wy = s.w.y, wz = s.w.z, kept = s.kept;
  const bool fold_low = s.fold[4] != 0, fold_high = s.fold[5] != 0;
  const bool shared_low = s.shared[4], shared_high = s.shared[5];
  const Real inverse = s.relaxed_inverse;
  const Real inverse_low = s.relaxation / (s.w.diagonal() + s.fold[4] * wz);
  const Real inverse_high = s.relaxation / (s.w.diagonal() + s.fold[5] * wz);
  const std::size_t ring_bytes = T::ring_planes * T::slots * sizeof(Real);
  const auto policy = sweep_team_policy<T>(teams, ring_bytes);
  Kokkos::parallel_for(
      "poisson::rbgs_fused_phased", Kokkos::Experimental::prefer(policy, resident_teams_occupancy<T>()),
      KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(team.team_scratch(0).get_shmem(ring_bytes));
        const auto [i0, j0, k0, k1] = team_tile(team.league_rank(), T::x, T::y, tiles_x, per_chunk, chunk, nz);
        // Flat offset of the pair (i0 + 2 h, j0 + c) of plane k.
        const auto pair_at = [&](int c, int h, int k) { return i0 + 2 * h + g + (j0 + c + g) * row + (k + g) * plane; };
        // Whether a cell of the block lies in the plane's part away from the x and y faces, or in the block at all.
        const auto inside_xy = [&](int li, int lj) {
          return static_cast<unsigned>(li - 1) < static_cast<unsigned>(nx - 2) &&
                 static_cast<unsigned>(lj - 1) < static_cast<unsigned>(ny - 2);
        };
        const auto in_block = [&](int li, int lj) {
          return static_cast<unsigned>(li) < static_cast<unsigned>(nx) &&
                 static_cast<unsigned>(lj) < static_cast<unsigned>(ny);
        };
        for (int j = k0 - 1; j <= k1; ++j) {
          if (j >= 0 && j < nz) {
            const bool folded_below = j == 0 && fold_low, folded_above = j == nz - 1 && fold_high;
            const Real inverse_j = folded_below ? inverse_low : folded_above ? inverse_high : inverse;
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::slots), [&](int t) {
              const int c = t / T::row_slots - 1, h = t % T::row_slots - 1;
              const int r = (first_parity + j0 + c + j) & 1, li = i0 + 2 * h + r, lj = j0 + c;
              const int o = pair_at(c, h, j) + r;
              if (inside_xy(li, lj)) {
                const Real west = in[o - 1], east = in[o + 1], south = in[o - row], north = in[o + row];
                const Real below = in[o - plane], above = in[o + plane], rhs = b[o];
                const Real old = blend ? in[o] : Real(0);
                const Real neighbours = wx * (west + east) + wy * (south + north) +
                                        wz * ((folded_below ? Real(0) : below) + (folded_above ? Real(0) : above));
                ring[T::at(j, c, h)] = (rhs - neighbours) * inverse_j + kept * old;
              } else if (in_block(li, lj)) {
                const auto around = [&](int di, int dj, int dk) { return in[o + di + dj * row + dk * plane]; };
                ring[T::at(j, c, h)] = s.relaxed(around, b[o], blend ? in[o] : Real(0), li, lj, j);
              }
            });
          }
          team.team_barrier();
          const int m = j - 1;
          if (m < k0) continue;
          const bool folded_below = m == 0 && fold_low, folded_above = m == nz - 1 && fold_high;
          const bool second_kept = !(m == 0 && shared_low) && !(m == nz - 1 && shared_high);
          const Real inverse_m = folded_below ? inverse_low : folded_above ? inverse_high : inverse;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::pairs), [&](int t) {
            const int c = t / T::half, h = t % T::half;
            const int r = (first_parity + j0 + c + m) & 1;  // the pair's first-colour cell is 2 h + r
            const int li = i0 + 2 * h + r, li2 = i0 + 2 * h + 1 - r, lj = j0 + c;
            const int o = pair_at(c, h, m);
            const bool first_here = in_block(li, lj);
            const Real own = first_here ? ring[T::at(m, c, h)] : Real(0);
            if (first_here) out[o + r] = own;
            if (inside_xy(li2, lj)) {
              if (!second_kept) return;
              const Real beside = ring[T::at(m, c, r != 0 ? h - 1 : h + 1)];
              const Real west = r != 0 ? beside : own, east = r != 0 ? own : beside;
              const Real south = ring[T::at(m, c - 1, h)], north = ring[T::at(m, c + 1, h)];
              const Real below = folded_below ? Real(0) : ring[T::at(m - 1, c, h)];
              const Real above = folded_above ? Real(0) : ring[T::at(m + 1, c, h)];
              const Real rhs = b[o + 1 - r], old = blend ? in[o + 1 - r] : Real(0);
              const Real neighbours = wx * (west + east) + wy * (south + north) + wz * (below + above);
              out[o + 1 - r] = (rhs - neighbours) * inverse_m + kept * old;
            } else if (in_block(li2, lj) && !s.on_shared_face(li2, lj, m)) {
              // Its first-colour neighbours from the ring (the x ones in pairs h - r and h + 1 - r); those across a
              // face are folded into the diagonal, never read.
              const auto around = [&](int di, int dj, int dk) {
                return ring[T::at(m + dk, c + dj, h + (di > 0 ? 1 - r : di < 0 ? -r : 0))];
              };
              out[o + 1 - r] = s.relaxed(around, b[o + 1 - r], blend ? in[o + 1 - r] : Real(0), li2, lj, m);
            }
          });
        }
      });
}

// The 2D sweep's tile of x-y columns (tx by ty cells) and its scratch ring of first-colour planes (the tile plus a
// one-cell rim). Only the first colour is stored, half a rim row per row: rim point a (-1 .. tx) sits at (a + 1) / 2,
// so neighbouring threads touch neighbouring words. A ring of four planes lets plane j be written while j - 3 .. j - 1
// are read: one barrier per plane.
template <int tx, int ty, int min_teams>
struct PairTile {
  static constexpr int x = tx, y = ty, half = tx / 2, pairs = tx * ty / 2, rim = tx + ty;
  static constexpr int row_points = half + 1, plane_points = (ty + 2) * row_points, ring_planes = 4;
  static_assert(rim <= pairs, "each rim point of a plane needs a pair of the tile to compute it");
  static constexpr int threads = sweep_team_threads(pairs);  // one per pair of cells of a row
  // Launch bounds: room for `min_teams` teams per multiprocessor (four teams of 256 leave 64 registers a thread, what
  // the loads of a plane in flight together need).
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
// (step_of, core_load, edge_load, update): with the loop body written out in one piece the kernel spills more of its
// 64 registers.
template <class T>
void pair_tiles(Field out_field, Field in_field, Field b_field, const ColourStencil& s, int first, int planes) {
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

// Planes per team of the sweep by phases: 16 rather than 32, which ran slower on one of the GPUs measured and no
// faster on the other (tests/perf/RESULTS.md).
constexpr int longest_phased_chunk = 16;

}  // namespace

bool fused_sweep_fits(const PoissonLevel& level) {
  const auto& n = level.shape.cells;
  return n[0] >= 2 && n[1] >= 2 && (level.decomp.global.dim == 2 || n[2] >= 2);
}

bool fused_sweep_pays_on(const PoissonLevel& level) {
  if (!fused_sweep_pays || !fused_sweep_fits(level)) return false;
  const auto& n = level.shape.cells;
  return level.decomp.global.dim == 2 || planes_per_team(tile_count(n[0], n[1]), n[2]) >= 16;
}

void fused_sweep_interior(Field out, Field in, Field b, const PoissonLevel& level, int first, Real relaxation,
                          int planes) {
  const ColourStencil s = colour_stencil(level, relaxation);
  if (!s.z_active) return pair_tiles<PairTile<tile_x, tile_y, 4>>(out, in, b, s, first, planes);
  // Blocks this large are refused by every loop over owned cells (grid/cell_loops.hpp) before a sweep runs.
  require(in.span() < static_cast<std::size_t>(std::numeric_limits<int>::max()),
          "red-black sweep: a block of 2^31 points or more; use more ranks");
  const int chunk = planes > 0 ? planes : planes_per_team(tile_count(s.n[0], s.n[1]), s.n[2], longest_phased_chunk);
  phased_tiles<PhasedTile<tile_x, tile_y, 4>>(out, in, b, s, first, chunk);
}

}  // namespace eddy::solver
