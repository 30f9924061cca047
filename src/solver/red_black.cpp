#include "solver/red_black.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"

namespace eddy::solver {
namespace {

// A level's red-black stencil in local cell indices (0 .. n - 1 along each axis).
struct ColourStencil {
  StencilWeights w;
  Real inverse_diagonal = 0;
  Kokkos::Array<Real, 6> fold;    // per face: +1 neumann, -1 dirichlet where this block ends on it, else 0
  Kokkos::Array<bool, 6> shared;  // per face: its ghosts come from a neighbour rank or a periodic wrap
  Kokkos::Array<bool, 6> seam;    // per face: a periodic wrap over an odd cell count (ghosts have the cell's colour)
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

  // The Gauss-Seidel value of cell (li, lj, lk) given its right-hand side; at(di, dj, dk) reads a neighbour. A folded
  // face's ghost is never read: its +-(this cell) goes into the diagonal.
  template <class Neighbour>
  KOKKOS_INLINE_FUNCTION Real relaxed(const Neighbour& at, Real rhs, int li, int lj, int lk) const {
    if (away_from_faces(li, lj, lk)) {
      Real neighbours = w.x * (at(-1, 0, 0) + at(1, 0, 0)) + w.y * (at(0, -1, 0) + at(0, 1, 0));
      if (z_active) neighbours += w.z * (at(0, 0, -1) + at(0, 0, 1));
      return (rhs - neighbours) * inverse_diagonal;
    }
    Real diagonal = w.diagonal();
    Real west = 0, east = 0, south = 0, north = 0;
    if (li == 0 && fold[0] != 0)
      diagonal += fold[0] * w.x;
    else
      west = at(-1, 0, 0);
    if (li == n[0] - 1 && fold[1] != 0)
      diagonal += fold[1] * w.x;
    else
      east = at(1, 0, 0);
    if (lj == 0 && fold[2] != 0)
      diagonal += fold[2] * w.y;
    else
      south = at(0, -1, 0);
    if (lj == n[1] - 1 && fold[3] != 0)
      diagonal += fold[3] * w.y;
    else
      north = at(0, 1, 0);
    Real neighbours = w.x * (west + east) + w.y * (south + north);
    if (z_active) {
      Real below = 0, above = 0;
      if (lk == 0 && fold[4] != 0)
        diagonal += fold[4] * w.z;
      else
        below = at(0, 0, -1);
      if (lk == n[2] - 1 && fold[5] != 0)
        diagonal += fold[5] * w.z;
      else
        above = at(0, 0, 1);
      neighbours += w.z * (below + above);
    }
    return (rhs - neighbours) / diagonal;
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

ColourStencil colour_stencil(const PoissonLevel& level) {
  ColourStencil s;
  s.w = level.weights();
  s.inverse_diagonal = 1 / s.w.diagonal();
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
// so neighbouring threads touch neighbouring words. A ring of four planes lets plane m + 2 be written while m - 1, m
// and m + 1 are read: one barrier per plane.
template <int tx, int ty, int min_teams>
struct Tile {
  static constexpr int x = tx, y = ty, rim_x = tx + 2, rim_y = ty + 2, row_points = rim_x / 2;
  static constexpr int plane_points = rim_y * row_points, ring_planes = 4;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  static constexpr int threads = tx * ty / 2;  // one per pair of cells of a row
#else
  static constexpr int threads = 1;
#endif
  // Launch bounds: room for `min_teams` teams per multiprocessor (40 registers a thread; more teams hide the barriers).
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;
  static KOKKOS_INLINE_FUNCTION int slot(int plane) { return (plane + ring_planes) % ring_planes; }
  static KOKKOS_INLINE_FUNCTION int at(int plane, int a, int c) {
    return slot(plane) * plane_points + (c + 1) * row_points + ((a + 1) >> 1);
  }
};

// Neighbour values read from the ring around cell (a, c) of the tile in plane m.
template <class T>
struct RingNeighbours {
  const Real* ring;
  int a, c, m;
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const { return ring[T::at(m + dk, a + di, c + dj)]; }
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

void red_black_sweep(Field x, Field b, const PoissonLevel& level, int colour) {
  const ColourStencil s = colour_stencil(level);
  const int g = s.ghost, parity = (colour + s.offset_parity) & 1;
  const char* label = colour == 0 ? "poisson::rbgs_red" : "poisson::rbgs_black";
  const Strides st = strides_of(x, {b});
  Real* xp = x.data();
  const Real* bp = b.data();
  // x runs over half the row: cell li = 2 h + p, where p puts (li + lj + lk + offsets) on the colour.
  grid::for_each_box_point(
      label, {0, 0, 0}, {(s.n[0] + 1) / 2, s.n[1], s.n[2]}, KOKKOS_LAMBDA(int h, int lj, int lk) {
        const int li = 2 * h + ((parity + lj + lk) & 1);
        if (li >= s.n[0]) return;
        const long long o = st.at(li + g, lj + g, lk + g);
        xp[o] = s.relaxed(PointNeighbours{xp + o, st}, bp[o], li, lj, lk);
      });
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

// Team-wide loops over the rim's first-colour points of a plane, then over the tile's pairs of cells of the plane
// below, one barrier per plane.
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
  const std::size_t ring_bytes = T::ring_planes * T::plane_points * sizeof(Real);
  typename T::Policy policy(teams, T::threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(ring_bytes));
  Kokkos::parallel_for(
      "poisson::rbgs_fused", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* ring = static_cast<Real*>(team.team_scratch(0).get_shmem(ring_bytes));
        const int tile = team.league_rank();
        const int i0 = tile % tiles_x * T::x, j0 = tile / tiles_x % tiles_y * T::y;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < nz ? k0 + chunk : nz;
        // Plane lk's first colour goes into the ring, then plane lk - 1's cells are written from it.
        for (int lk = k0 - 1; lk <= k1; ++lk) {
          if (lk >= 0 && lk < nz) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::plane_points), [&](int p) {
              const int c = p / T::row_points - 1, lj = j0 + c;
              const int li = i0 - 1 + 2 * (p % T::row_points) + ((first_parity + i0 - 1 + lj + lk) & 1);
              const int a = li - i0;
              if (li < 0 || li >= s.n[0] || lj < 0 || lj >= s.n[1]) return;
              if ((c < 0 || c >= T::y) && (a < 0 || a >= T::x)) return;  // rim corners are never read
              const long long o = st.at(li + g, lj + g, lk + g);
              ring[T::at(lk, a, c)] = s.relaxed(PointNeighbours{in + o, st}, b[o], li, lj, lk);
            });
          }
          team.team_barrier();
          const int m = lk - 1;
          if (m < k0) continue;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::y * (T::x / 2)), [&](int p) {
            const int c = p / (T::x / 2), lj = j0 + c;
            if (lj >= s.n[1]) return;
            const int a0 = 2 * (p % (T::x / 2));
            const long long row = st.at(i0 + g, lj + g, m + g);
            for (int a = a0; a <= a0 + 1; ++a) {
              const int li = i0 + a;
              if (li >= s.n[0]) return;
              if (s.has_colour(li, lj, m, first)) {
                out[row + a] = ring[T::at(m, a, c)];
              } else if (s.away_from_faces(li, lj, m) || !s.on_shared_face(li, lj, m)) {
                out[row + a] = s.relaxed(RingNeighbours<T>{ring, a, c, m}, b[row + a], li, lj, m);
              }
            }
          });
        }
      });
}

}  // namespace

void fused_sweep_interior(Field out, Field in, Field b, const PoissonLevel& level, int first, int planes,
                          SweepTile tile) {
  const ColourStencil s = colour_stencil(level);
  switch (tile) {
    case SweepTile::x64_y8:
      return fused_tiles<Tile<default_tile_x, default_tile_y, 6>>(out, in, b, s, first, planes);
    case SweepTile::x64_y4:
      return fused_tiles<Tile<64, 4, 12>>(out, in, b, s, first, planes);
    case SweepTile::x64_y16:
      return fused_tiles<Tile<64, 16, 3>>(out, in, b, s, first, planes);
  }
}

void sweep_shared_faces(Field x, Field old, Field b, const PoissonLevel& level, int second) {
  const ColourStencil s = colour_stencil(level);
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
        x(i, j, k) = s.relaxed(FaceNeighbours{x, old, i, j, k, same_colour}, b(i, j, k), l[0], l[1], l[2]);
      });
}

}  // namespace eddy::solver
