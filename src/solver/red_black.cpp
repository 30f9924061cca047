#include "solver/red_black.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"

namespace eddy::solver {
namespace {

// A level's red-black stencil in local cell indices (0 .. n - 1 along each axis).
struct ColourStencil {
  StencilWeights w;
  Real relaxation = 1;            // omega: the new value is (1 - omega) old + omega (Gauss-Seidel value)
  Real kept = 0;                  // 1 - omega
  Real relaxed_inverse = 0;       // omega / diagonal
  Kokkos::Array<Real, 6> fold;    // per face: +1 neumann, -1 dirichlet where this block ends on it, else 0
  Kokkos::Array<bool, 6> shared;  // per face: its ghosts come from a neighbour rank or a periodic wrap
  Kokkos::Array<bool, 6> seam;    // per face: a periodic wrap over an odd cell count (ghosts have the cell's colour)
  // Per face: the step along its axis from a cell on it to the neighbour through it: -1 or +1 (the ghost), or across
  // the block where the colour passes read the owned cell a periodic wrap onto this block mirrors (wrap_in_place).
  Kokkos::Array<int, 6> step;
  Kokkos::Array<int, 3> n;
  int ghost = 1, offset_parity = 0;
  bool z_active = true;  // the stencil reaches along z (3D)

  KOKKOS_INLINE_FUNCTION bool has_colour(int li, int lj, int lk, int colour) const {
    return ((li + lj + lk + offset_parity) & 1) == colour;
  }

  // True when no neighbour of the cell is a ghost (one unsigned compare per axis).
  KOKKOS_INLINE_FUNCTION bool away_from_faces(int li, int lj, int lk) const {
    return static_cast<unsigned>(li - 1) < static_cast<unsigned>(n[0] - 2) &&
           static_cast<unsigned>(lj - 1) < static_cast<unsigned>(n[1] - 2) &&
           (!z_active || static_cast<unsigned>(lk - 1) < static_cast<unsigned>(n[2] - 2));
  }

  KOKKOS_INLINE_FUNCTION bool on_shared_face(int li, int lj, int lk) const {
    return (li == 0 && shared[0]) || (li == n[0] - 1 && shared[1]) || (lj == 0 && shared[2]) ||
           (lj == n[1] - 1 && shared[3]) || (lk == 0 && shared[4]) || (lk == n[2] - 1 && shared[5]);
  }

  // True when an update reads the cell's old value (omega != 1); plain Gauss-Seidel passes 0 for it.
  KOKKOS_INLINE_FUNCTION bool blends() const { return kept != 0; }

  // The over-relaxed Gauss-Seidel value of cell (li, lj, lk) given its right-hand side and old value; at(di, dj, dk)
  // reads a neighbour. A folded face's ghost is never read: its +-(this cell) goes into the diagonal.
  template <class Neighbour>
  KOKKOS_INLINE_FUNCTION Real relaxed(const Neighbour& at, Real rhs, Real old, int li, int lj, int lk) const {
    if (away_from_faces(li, lj, lk)) {
      Real neighbours = w.x * (at(-1, 0, 0) + at(1, 0, 0)) + w.y * (at(0, -1, 0) + at(0, 1, 0));
      if (z_active) neighbours += w.z * (at(0, 0, -1) + at(0, 0, 1));
      return (rhs - neighbours) * relaxed_inverse + kept * old;
    }
    Real diagonal = w.diagonal();
    Real west = 0, east = 0, south = 0, north = 0;
    if (li == 0 && fold[0] != 0)
      diagonal += fold[0] * w.x;
    else
      west = at(li == 0 ? step[0] : -1, 0, 0);
    if (li == n[0] - 1 && fold[1] != 0)
      diagonal += fold[1] * w.x;
    else
      east = at(li == n[0] - 1 ? step[1] : 1, 0, 0);
    if (lj == 0 && fold[2] != 0)
      diagonal += fold[2] * w.y;
    else
      south = at(0, lj == 0 ? step[2] : -1, 0);
    if (lj == n[1] - 1 && fold[3] != 0)
      diagonal += fold[3] * w.y;
    else
      north = at(0, lj == n[1] - 1 ? step[3] : 1, 0);
    Real neighbours = w.x * (west + east) + w.y * (south + north);
    if (z_active) {
      Real below = 0, above = 0;
      if (lk == 0 && fold[4] != 0)
        diagonal += fold[4] * w.z;
      else
        below = at(0, 0, lk == 0 ? step[4] : -1);
      if (lk == n[2] - 1 && fold[5] != 0)
        diagonal += fold[5] * w.z;
      else
        above = at(0, 0, lk == n[2] - 1 ? step[5] : 1);
      neighbours += w.z * (below + above);
    }
    return relaxation * (rhs - neighbours) / diagonal + kept * old;
  }
};

// Flat offsets of the fields of one level (all of one shape): a point (i, j, k) is at i + j * row + k * plane.
struct Strides {
  int row = 0;
  long long plane = 0;
  KOKKOS_INLINE_FUNCTION long long at(int i, int j, int k) const {
    return i + static_cast<long long>(j) * row + k * plane;
  }
};

Strides strides_of(Field f, std::initializer_list<Field> same_shape) {
  const Strides s{static_cast<int>(f.stride(1)), static_cast<long long>(f.stride(2))};
  for (const auto& other : same_shape) {
    require(other.stride(1) == f.stride(1) && other.stride(2) == f.stride(2),
            "red-black sweep: fields of one level differ in shape");
  }
  return s;
}

// Neighbour values read around a point of a field through its flat offsets.
struct PointNeighbours {
  const Real* centre;
  Strides s;
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const {
    return centre[di + dj * s.row + dk * s.plane];
  }
};

// Whether face f of the level's block is a periodic wrap onto the block itself (its axis not split between ranks)
// over an even number of cells.
bool wraps_onto_itself(const PoissonLevel& level, int f) {
  const int axis = f / 2;
  return level.decomp.wraps_onto_itself(axis) && level.decomp.global.cells[axis] % 2 == 0;
}

// The stencil of the level's sweeps; with `wrap_in_place` the faces that wrap onto the block itself read the owned
// cells they mirror instead of their ghosts (the colour passes; not the fused sweep, whose neighbours are its own).
ColourStencil colour_stencil(const PoissonLevel& level, Real relaxation, bool wrap_in_place = false) {
  require(relaxation > 0 && relaxation < 2, "red-black sweep: the relaxation factor must lie in (0, 2)");
  ColourStencil s;
  s.w = level.weights();
  s.relaxation = relaxation;
  s.kept = 1 - relaxation;
  s.relaxed_inverse = relaxation / s.w.diagonal();
  s.z_active = s.w.z != 0;
  for (int a = 0; a < 3; ++a) s.n[a] = level.shape.cells[a];
  s.ghost = level.shape.ghost;
  const auto& o = level.decomp.offset;
  s.offset_parity = (o[0] + o[1] + o[2]) & 1;
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const bool physical = level.decomp.on_boundary(axis, f % 2);
    s.fold[f] = 0;
    if (physical && level.faces[f] == PressureBoundary::neumann) s.fold[f] = 1;
    if (physical && level.faces[f] == PressureBoundary::dirichlet) s.fold[f] = -1;
    s.shared[f] = !physical && (axis < 2 || s.z_active);
    const auto& d = level.decomp;
    const bool at_end = f % 2 == 0 ? d.offset[axis] == 0 : d.offset[axis] + d.local_cells[axis] == d.global.cells[axis];
    s.seam[f] = s.shared[f] && d.global.periodic[axis] && at_end && d.global.cells[axis] % 2 == 1;
    const bool across = wrap_in_place && s.shared[f] && wraps_onto_itself(level, f);
    s.step[f] = (f % 2 == 0 ? -1 : 1) * (across ? 1 - s.n[axis] : 1);
  }
  return s;
}

// Neighbour values of a second-colour cell on a shared face: from `x`, except across an odd periodic seam, where the
// neighbour has the same colour and the colour passes read its value from before the sweep (`old`).
struct FaceNeighbours {
  Field x, old;
  int i, j, k, same_colour;  // bit f: the neighbour through face f has this cell's colour
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const {
    const int f = di != 0 ? (di > 0) : dj != 0 ? 2 + (dj > 0) : 4 + (dk > 0);
    return (same_colour >> f & 1 ? old : x)(i + di, j + dj, k + dk);
  }
};

// The fused sweep's tile of x-y columns (tx by ty cells) and its scratch ring of first-colour planes (the tile plus a
// one-cell rim). Only the first colour is stored, half a rim row per row: rim point a (-1 .. tx) sits at (a + 1) / 2,
// so neighbouring threads touch neighbouring words. A ring of four planes lets plane j be written while j - 3 .. j - 1
// are read: one barrier per plane.
template <int tx, int ty, int min_teams>
struct Tile {
  static constexpr int x = tx, y = ty, half = tx / 2, pairs = tx * ty / 2, rim = tx + ty;
  static constexpr int row_points = half + 1, plane_points = (ty + 2) * row_points, ring_planes = 4;
  static_assert(rim <= pairs, "each rim point of a plane needs a pair of the tile to compute it");
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  static constexpr int threads = pairs;  // one per pair of cells of a row
#else
  static constexpr int threads = 1;
#endif
  // Launch bounds: room for `min_teams` teams per multiprocessor (four teams of 256 leave 64 registers a thread, what
  // the loads of a plane in flight together need; three ran slower on an H200).
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;
  /// Index of rim point (row c + 1, half-row point q) of plane `plane` (plane >= -ring_planes).
  static KOKKOS_INLINE_FUNCTION int at(int plane, int c, int q) {
    return ((plane + ring_planes) & (ring_planes - 1)) * plane_points + (c + 1) * row_points + q;
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

// The tile of SweepTile::x64_y8, the default.
constexpr int default_tile_x = 64, default_tile_y = 8;

// Planes per team: as many as keep at least a thousand teams (the rim planes at both ends are computed twice).
int planes_per_team(long long tiles, int nz) {
  int chunk = 32;
  while (chunk > 2 && tiles * ((nz + chunk - 1) / chunk) < 1024) chunk /= 2;
  return chunk;
}

}  // namespace

bool colour_passes_read_no_ghosts(const PoissonLevel& level) {
  for (int f = 0; f < 6; ++f) {
    const bool physical = level.decomp.on_boundary(f / 2, f % 2);
    const bool shared = !physical && (f < 4 || level.decomp.global.dim == 3);
    if (shared && !wraps_onto_itself(level, f)) return false;
  }
  return true;
}

#if !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
namespace {

// The colour's cells of a row from li = `first` to `last` (stride two), none of them on a face of the block: the
// update of ColourStencil::relaxed away from the faces, in its order of operations, with no test per cell. `row` and
// `rhs` point at the row's cell li = 0. Returns the first li past `last`.
template <bool ZActive>
int relax_inner_cells(const ColourStencil& s, Real* row, const Real* rhs, Strides st, int first, int last) {
  int li = first;
  for (; li <= last; li += 2) {
    Real neighbours = s.w.x * (row[li - 1] + row[li + 1]) + s.w.y * (row[li - st.row] + row[li + st.row]);
    if (ZActive) neighbours += s.w.z * (row[li - st.plane] + row[li + st.plane]);
    row[li] = (rhs[li] - neighbours) * s.relaxed_inverse + s.kept * row[li];
  }
  return li;
}

}  // namespace
#endif

void red_black_sweep(Field x, Field b, const PoissonLevel& level, int colour, Real relaxation) {
  const ColourStencil s = colour_stencil(level, relaxation, true);
  const int g = s.ghost, parity = (colour + s.offset_parity) & 1;
  const char* label = colour == 0 ? "poisson::rbgs_red" : "poisson::rbgs_black";
  const Strides st = strides_of(x, {b});
  Real* xp = x.data();
  const Real* bp = b.data();
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  // x runs over half the row: cell li = 2 h + p, where p puts (li + lj + lk + offsets) on the colour.
  grid::for_each_box_point(
      label, {0, 0, 0}, {(s.n[0] + 1) / 2, s.n[1], s.n[2]}, KOKKOS_LAMBDA(int h, int lj, int lk) {
        const int li = 2 * h + ((parity + lj + lk) & 1);
        if (li >= s.n[0]) return;
        const long long o = st.at(li + g, lj + g, lk + g);
        xp[o] = s.relaxed(PointNeighbours{xp + o, st}, bp[o], xp[o], li, lj, lk);
      });
#else
  // By rows: a row away from the faces takes its end cells through `relaxed` and the others in one loop.
  Kokkos::parallel_for(
      label, grid::Policy2({0, 0}, {s.n[1], s.n[2]}), KOKKOS_LAMBDA(int lj, int lk) {
        const auto update = [&](int li) {
          const long long o = st.at(li + g, lj + g, lk + g);
          xp[o] = s.relaxed(PointNeighbours{xp + o, st}, bp[o], xp[o], li, lj, lk);
        };
        int li = (parity + lj + lk) & 1;
        const bool inner_row = static_cast<unsigned>(lj - 1) < static_cast<unsigned>(s.n[1] - 2) &&
                               (!s.z_active || static_cast<unsigned>(lk - 1) < static_cast<unsigned>(s.n[2] - 2));
        if (!inner_row) {
          for (; li < s.n[0]; li += 2) update(li);
          return;
        }
        if (li == 0) {
          update(0);
          li = 2;
        }
        const long long start = st.at(g, lj + g, lk + g);
        li = s.z_active ? relax_inner_cells<true>(s, xp + start, bp + start, st, li, s.n[0] - 2)
                        : relax_inner_cells<false>(s, xp + start, bp + start, st, li, s.n[0] - 2);
        if (li == s.n[0] - 1) update(li);
      });
#endif
}

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
  const int teams = tiles_x * tiles_y * ((nz + chunk - 1) / chunk);
  const int first_parity = (first + s.offset_parity) & 1;
  const bool blend = s.blends();
  const std::size_t ring_bytes = T::ring_planes * T::plane_points * sizeof(Real);
  typename T::Policy policy(teams, T::threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(ring_bytes));
  Kokkos::parallel_for(
      "poisson::rbgs_fused", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(team.team_scratch(0).get_shmem(ring_bytes));
        const int tile = team.league_rank();
        const int i0 = tile % tiles_x * T::x, j0 = tile / tiles_x % tiles_y * T::y;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < nz ? k0 + chunk : nz;
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
  }
}

const char* describe(SweepTile tile) {
  static constexpr const char* names[] = {"64x8", "64x4", "64x16"};
  return names[static_cast<int>(tile)];
}

void sweep_shared_faces(Field x, Field old, Field b, const PoissonLevel& level, int second, Real relaxation) {
  const ColourStencil s = colour_stencil(level, relaxation);
  const int g = s.ghost;
  // The shared faces' cells laid end to end: face f holds points [start[f], start[f + 1]).
  Kokkos::Array<int, 7> start{};
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    start[f + 1] = start[f] + (s.shared[f] ? s.n[(axis + 1) % 3] * s.n[(axis + 2) % 3] : 0);
  }
  if (start[6] == 0) return;
  Kokkos::parallel_for(
      "poisson::rbgs_shared_faces", Range(0, start[6]), KOKKOS_LAMBDA(int p) {
        int f = 0;
        while (p >= start[f + 1]) ++f;
        const int axis = f / 2, u = (axis + 1) % 3, v = (axis + 2) % 3, q = p - start[f];
        int l[3];
        l[axis] = f % 2 == 0 ? 0 : s.n[axis] - 1;
        l[u] = q % s.n[u];
        l[v] = q / s.n[u];
        if (!s.has_colour(l[0], l[1], l[2], second)) return;
        for (int e = 0; e < f; ++e) {  // a cell on two shared faces belongs to the first
          if (s.shared[e] && l[e / 2] == (e % 2 == 0 ? 0 : s.n[e / 2] - 1)) return;
        }
        int same_colour = 0;
        for (int e = 0; e < 6; ++e) {
          if (s.seam[e] && l[e / 2] == (e % 2 == 0 ? 0 : s.n[e / 2] - 1)) same_colour |= 1 << e;
        }
        const int i = l[0] + g, j = l[1] + g, k = l[2] + g;
        x(i, j, k) =
            s.relaxed(FaceNeighbours{x, old, i, j, k, same_colour}, b(i, j, k), old(i, j, k), l[0], l[1], l[2]);
      });
}

}  // namespace eddy::solver
