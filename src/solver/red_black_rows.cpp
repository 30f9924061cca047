// The fused red-black sweep by tile rows (SweepTile::rows_x64_y8). A team takes a tile of 60 x ty cells and marches
// up a chunk of z planes. A warp takes a row of 64 cells: the tile's row and one pair of cells beyond each x end, or
// one of the rows beside the tile (its y rim). A thread takes a pair of neighbouring cells, which it reads and writes
// as one 16-byte access. Per plane j a thread:
//  - computes the first-colour cell of its pair on plane j. Its z neighbours and its pair's other cell are old values
//    the thread holds in registers from the planes before; its other x neighbour and its y neighbours are old
//    second-colour values that the neighbouring threads put in team scratch memory one plane before;
//  - computes the second-colour cell of plane j - 1 (the tile's pairs only). Its z neighbours are the first-colour
//    cells of planes j - 2 and j of its own column, which the thread computed; its x and y neighbours are new
//    first-colour values in scratch;
//  - stores plane j - 1 of its pair, both colours, and loads the old pair of plane j + 2 and the right-hand side of
//    plane j + 1, which the next plane uses.
// The rim's first colour is computed as the tile's, so no thread waits on loads of its own. One barrier per plane.
// Against the tiles of red_black.cpp every value comes from device memory once per tile, in full sectors.
#include "core/error.hpp"
#include "grid/pair_columns.hpp"
#include "solver/colour_stencil.hpp"

#include <limits>

namespace eddy::solver::detail {
namespace {

template <int ty, int min_teams>
struct RowTile {
  static constexpr int pairs = 32;         // per row: one warp; its pairs 1 .. 30 are the tile's, 0 and 31 its x rim
  static constexpr int inner = pairs - 2;  // pairs per tile row
  static constexpr int rows = ty + 2;      // rows -1 .. ty: the tile and its y rim
  static constexpr int plane_entries = rows * pairs;
  static constexpr int team_threads = pairs * rows;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  static constexpr int threads = team_threads;  // each keeps its pair's state in registers
#else
  static constexpr int threads = 1;  // one thread runs the team's pairs in turn, their states in scratch
#endif
  using Policy =
      Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, min_teams>>;
  /// Scratch index of pair h of row c (-1 .. ty) of plane `plane`, in a ring of two planes; the pairs of a row wrap
  /// around (the rim pairs' neighbours beyond the warp are never read).
  static KOKKOS_INLINE_FUNCTION int at(int plane, int c, int h) {
    return ((plane & 1) * rows + c + 1) * pairs + (h & (pairs - 1));
  }
};

// What a thread carries from one plane to the next. Plane j is the plane whose first colour it computes next.
struct PairState {
  RealPair here, above;   // the old pair of planes j and j + 1
  RealPair rhs;           // the right-hand side of plane j
  Real below = 0;         // the old value of plane j - 1 in the column of plane j's first colour
  Real rhs_second = 0;    // the right-hand side of the second-colour cell of plane j - 1
  Real first_before = 0;  // the new first colour of plane j - 2 (in the column of plane j - 1's second colour)
  Real first_last = 0;    // the new first colour of plane j - 1
  Real beyond = 0;        // the y rim rows: the old value beyond the rim row on plane j
};

// Where the threads' states live: each thread's own in registers (GPUs), or one array in scratch for a team run by one
// thread (CPUs).
template <bool in_registers, class State = PairState>
struct PairStates {
  State* all;
  KOKKOS_INLINE_FUNCTION explicit PairStates(State* states) : all(states) {}
  KOKKOS_INLINE_FUNCTION State& of(int t) { return all[t]; }
};
template <class State>
struct PairStates<true, State> {
  State mine;
  KOKKOS_INLINE_FUNCTION explicit PairStates(State*) {}
  KOKKOS_INLINE_FUNCTION State& of(int) { return mine; }
};

KOKKOS_INLINE_FUNCTION Real element(const RealPair& p, int e) { return e == 0 ? p.even : p.odd; }

}  // namespace

template <int ty, int min_teams>
void fused_rows(Field out_field, Field in_field, Field b_field, const ColourStencil& s, int first, int planes) {
  using T = RowTile<ty, min_teams>;
  const Strides st = strides_of(out_field, {in_field, b_field});
  require(in_field.span() < static_cast<std::size_t>(std::numeric_limits<int>::max()),
          "red-black sweep by rows: a level of 2^31 points or more needs more ranks");
  Real* out = out_field.data();
  const Real* in = in_field.data();
  const Real* b = b_field.data();
  const int g = s.ghost, nz = s.n[2], row = st.row, plane = static_cast<int>(st.plane);
  const int extent_x = row, extent_y = static_cast<int>(in_field.extent(1)),
            extent_z = static_cast<int>(in_field.extent(2));
  // Pairs of view x indices (2 p, 2 p + 1) holding owned cells, T::inner to a tile.
  const int lo_pair = g / 2, hi_pair = (s.n[0] + g - 1) / 2;
  const int tiles_x = (hi_pair - lo_pair + T::inner) / T::inner, tiles_y = (s.n[1] + ty - 1) / ty;
  const int chunk = planes > 0 ? planes : planes_per_team(static_cast<long long>(tiles_x) * tiles_y, nz);
  const int teams = tiles_x * tiles_y * ((nz + chunk - 1) / chunk);
  const int first_parity = (first + s.offset_parity) & 1;
  const std::size_t ring_bytes = 2 * 2 * T::plane_entries * sizeof(Real);
  const std::size_t state_bytes = T::threads == 1 ? T::team_threads * sizeof(PairState) : 0;
  typename T::Policy policy(teams, T::threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(ring_bytes));
  if (state_bytes > 0) policy.set_scratch_size(1, Kokkos::PerTeam(state_bytes + sizeof(RealPair)));
  Kokkos::parallel_for(
      "poisson::rbgs_fused_rows", policy, KOKKOS_LAMBDA(const typename T::Policy::member_type& team) {
        Real* old_ring = static_cast<Real*>(team.team_scratch(0).get_shmem(ring_bytes));  // old second colour
        Real* new_ring = old_ring + 2 * T::plane_entries;                                 // new first colour
        PairStates<T::threads != 1> states(
            state_bytes > 0
                ? static_cast<PairState*>(team.team_scratch(1).get_shmem_aligned(state_bytes, sizeof(RealPair)))
                : nullptr);
        const int tile = team.league_rank();
        const int pair0 = lo_pair - 1 + tile % tiles_x * T::inner, j0 = tile / tiles_x % tiles_y * ty;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < nz ? k0 + chunk : nz;
        // Where a thread's pair lies, and the view offsets of its loads at plane 0 of the owned cells.
        struct Place {
          int h, c, li, lj, vx, vy, centre, parity;
          bool stored, row_in, loads;
        };
        const auto place_of = [&](int t) {
          Place q;
          q.h = t % T::pairs;
          q.c = t / T::pairs - 1;
          q.vx = 2 * (pair0 + q.h);
          q.li = q.vx - g;  // local index of the pair's even cell
          q.lj = j0 + q.c;
          q.vy = q.lj + g;
          q.stored = q.h >= 1 && q.h <= T::inner && pair0 + q.h <= hi_pair && q.c >= 0 && q.c < ty;
          q.row_in = q.lj >= 0 && q.lj < s.n[1];
          q.loads = q.vx >= 0 && q.vx + 1 < extent_x && q.vy >= 0 && q.vy < extent_y;
          q.centre = q.vx + q.vy * row + g * plane;
          q.parity = (first_parity + q.li + q.lj) & 1;  // plus the plane: the element of the first colour
          return q;
        };
        const auto plane_in = [&](int k) { return k + g >= 0 && k + g < extent_z; };
        const auto load_old = [&](const Place& q, int k) {
          return q.loads && plane_in(k) ? grid::load_pair(in, q.centre + k * plane) : RealPair{0, 0};
        };
        const auto load_rhs = [&](const Place& q, int k) {
          return q.loads && plane_in(k) ? grid::load_pair(b, q.centre + k * plane) : RealPair{0, 0};
        };
        // Rim rows: the old value beyond them in y, in the column of plane k's first colour.
        const auto load_beyond = [&](const Place& q, int k) {
          const int vy = q.c < 0 ? q.vy - 1 : q.vy + 1;
          const bool rim = (q.c < 0 || q.c == ty) && q.loads && vy >= 0 && vy < extent_y && plane_in(k);
          return rim ? in[q.vx + ((q.parity + k) & 1) + vy * row + (k + g) * plane] : Real(0);
        };
        const auto store_old_second = [&](const Place& q, const RealPair& pair, int k) {
          old_ring[T::at(k, q.c, q.h)] = element(pair, 1 - ((q.parity + k) & 1));
        };
        // Before the first plane: the state of plane k0 - 1 and the old second colour of that plane in scratch.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::team_threads), [&](int t) {
          const Place q = place_of(t);
          PairState& a = states.of(t);
          const int j = k0 - 1;
          a.here = load_old(q, j);
          a.above = load_old(q, j + 1);
          a.rhs = load_rhs(q, j);
          a.below = element(load_old(q, j - 1), (q.parity + j) & 1);
          a.beyond = load_beyond(q, j);
          store_old_second(q, a.here, j);
        });
        team.team_barrier();
        for (int j = k0 - 1; j <= k1; ++j) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, T::team_threads), [&](int t) {
            const Place q = place_of(t);
            PairState& a = states.of(t);
            const int r = (q.parity + j) & 1;  // the element of plane j's first colour
            // Loads for the next plane, in flight while this one is computed.
            const RealPair next = load_old(q, j + 2);
            const RealPair rhs_next = load_rhs(q, j + 1);
            const Real beyond_next = load_beyond(q, j + 1);
            // The first colour of plane j.
            LoadedStencil around;
            around.west = r == 0 ? old_ring[T::at(j, q.c, q.h - 1)] : a.here.even;
            around.east = r == 0 ? a.here.odd : old_ring[T::at(j, q.c, q.h + 1)];
            around.south = q.c < 0 ? a.beyond : old_ring[T::at(j, q.c - 1, q.h)];
            around.north = q.c == ty ? a.beyond : old_ring[T::at(j, q.c + 1, q.h)];
            around.below = a.below;
            around.above = element(a.above, r);
            const int li = q.li + r;
            const bool core = q.loads && q.row_in && li >= 0 && li < s.n[0] && j >= 0 && j < nz;
            const Real first_new =
                core ? s.relaxed(around, element(a.rhs, r), element(a.here, r), li, q.lj, j) : Real(0);
            new_ring[T::at(j, q.c, q.h)] = first_new;
            store_old_second(q, a.above, j + 1);
            // The second colour of plane m = j - 1, and the pair's store.
            const int m = j - 1;
            if (q.stored && q.row_in && m >= k0 && m < k1) {
              const int e2 = r;  // the second colour's element on plane m
              LoadedStencil firsts;
              const Real beside = new_ring[T::at(m, q.c, e2 == 1 ? q.h + 1 : q.h - 1)];
              firsts.west = e2 == 1 ? a.first_last : beside;
              firsts.east = e2 == 1 ? beside : a.first_last;
              firsts.south = new_ring[T::at(m, q.c - 1, q.h)];
              firsts.north = new_ring[T::at(m, q.c + 1, q.h)];
              firsts.below = a.first_before;
              firsts.above = first_new;
              const int li2 = q.li + e2, li1 = q.li + 1 - e2;
              const bool update =
                  li2 >= 0 && li2 < s.n[0] && (s.away_from_faces(li2, q.lj, m) || !s.on_shared_face(li2, q.lj, m));
              const Real second_new = update ? s.relaxed(firsts, a.rhs_second, a.below, li2, q.lj, m) : Real(0);
              const RealPair value = e2 == 1 ? RealPair{a.first_last, second_new} : RealPair{second_new, a.first_last};
              const bool first_in = li1 >= 0 && li1 < s.n[0];
              grid::store_pair(out, q.centre + m * plane, value, e2 == 1 ? first_in : update,
                               e2 == 1 ? update : first_in);
            }
            // On to plane j + 1.
            a.below = element(a.here, 1 - r);
            a.rhs_second = element(a.rhs, 1 - r);
            a.first_before = a.first_last;
            a.first_last = first_new;
            a.here = a.above;
            a.above = next;
            a.rhs = rhs_next;
            a.beyond = beyond_next;
          });
          team.team_barrier();
        }
      });
}

template void fused_rows<8, 3>(Field, Field, Field, const ColourStencil&, int, int);

}  // namespace eddy::solver::detail
