#include "solver/phased_sweep.hpp"

#include "solver/sweep_team.hpp"

namespace eddy::solver {
namespace {

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

// The sweep of every tile (phased_sweep.hpp).
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

}  // namespace

void sweep_by_phases(Field out, Field in, Field b, const ColourStencil& s, int first, int chunk) {
  phased_tiles<PhasedTile<64, 8, 4>>(out, in, b, s, first, chunk);
}

}  // namespace eddy::solver
