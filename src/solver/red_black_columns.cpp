#include "solver/red_black_columns.hpp"

#include <cstdint>

namespace eddy::solver {

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

constexpr int lanes = 32;                         // pairs of cells of a tile row
constexpr int tile_rows = 8;                      // rows of a tile
constexpr int row_warps = tile_rows + 2;          // the tile's rows and a rim row on each side
constexpr int threads = lanes * (row_warps + 1);  // and a warp for the first colour of the rim columns
constexpr unsigned whole_warp = 0xffffffffu;

// Team scratch, two planes of each: step j writes plane j's (or j + 1's) while the other plane's is read.
struct ColumnScratch {
  Real old_second[2][row_warps][lanes];  // each pair's second-colour value of `in`: the first colour's y neighbours
  Real new_first[2][row_warps][lanes];   // each pair's new first colour: the second colour's y neighbours
  Real rim_first[2][2][tile_rows];       // new first colour of the columns beside the tile (x = -1 and 64) per row
};

KOKKOS_INLINE_FUNCTION RealPair load_pair_if(const Real* p, bool valid) {
  return valid ? *reinterpret_cast<const RealPair*>(p) : RealPair{0, 0};
}

// The value of the lane below (lane - 1) or above (lane + 1) in the warp; a lane at the warp's end gets its own.
KOKKOS_INLINE_FUNCTION Real from_lane_below([[maybe_unused]] Real value) {
#if defined(__CUDA_ARCH__)
  return __shfl_up_sync(whole_warp, value, 1);
#else
  return value;
#endif
}
KOKKOS_INLINE_FUNCTION Real from_lane_above([[maybe_unused]] Real value) {
#if defined(__CUDA_ARCH__)
  return __shfl_down_sync(whole_warp, value, 1);
#else
  return value;
#endif
}

KOKKOS_INLINE_FUNCTION Real cell_of(const RealPair& pair, int position) { return position == 0 ? pair.even : pair.odd; }

using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight, Kokkos::LaunchBounds<threads, 2>>;

}  // namespace

bool fused_sweep_by_columns(Field out_field, Field in_field, Field b_field, const ColourStencil& s, int first,
                            int planes) {
  const Strides st = strides_of(out_field, {in_field, b_field});
  const auto aligned = [](const Field& f) {
    return reinterpret_cast<std::uintptr_t>(f.data()) % sizeof(RealPair) == 0;
  };
  if (!s.z_active || s.ghost != 1 || st.row % 2 != 0 || st.plane % 2 != 0 || !aligned(out_field) ||
      !aligned(in_field) || !aligned(b_field)) {
    return false;
  }
  Real* out = out_field.data();
  const Real* in = in_field.data();
  const Real* b = b_field.data();
  const int n0 = s.n[0], n1 = s.n[1], n2 = s.n[2];
  // View columns 0 .. n0 + 1 in pairs (2 h, 2 h + 1): local cells 2 h - 1 and 2 h. Tiles start at view column 64 t.
  // A pair whose second column lies past the row's end reads the row's padding (the row stride is even).
  const int tiles_x = n0 / (2 * lanes) + 1, tiles_y = (n1 + tile_rows - 1) / tile_rows;
  const int chunk = planes;
  const int teams = tiles_x * tiles_y * ((n2 + chunk - 1) / chunk);
  const int fp =
      (first + s.offset_parity) & 1;  // local (li, lj, lk) has the first colour where li + lj + lk = fp mod 2
  Policy policy(teams, threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(sizeof(ColumnScratch)));
  Kokkos::parallel_for(
      "poisson::rbgs_fused_columns", policy, KOKKOS_LAMBDA(const Policy::member_type& team) {
        ColumnScratch& scratch = *static_cast<ColumnScratch*>(team.team_scratch(0).get_shmem(sizeof(ColumnScratch)));
        const int tile = team.league_rank();
        const int i0 = tile % tiles_x * 2 * lanes, j0 = tile / tiles_x % tiles_y * tile_rows;
        const int k0 = tile / (tiles_x * tiles_y) * chunk, k1 = k0 + chunk < n2 ? k0 + chunk : n2;
        const int warp = team.team_rank() / lanes, lane = team.team_rank() % lanes;
        const bool row_warp = warp < row_warps;
        // A row warp's pair: view columns x, x + 1 of local row lj (c = -1 and tile_rows are the rim rows).
        const int c = warp - 1, lj = j0 + c, x = i0 + 2 * lane;
        const bool row_owned = lj >= 0 && lj < n1, own_row = row_owned && c >= 0 && c < tile_rows;
        const bool pair_loads = row_warp && lj >= -1 && lj <= n1 && x <= n0 + 1;
        const long long row_offset = x + static_cast<long long>(lj + 1) * st.row;
        const auto plane_offset = [&](int k) { return row_offset + (k + 1) * st.plane; };
        const auto loads_plane = [&](int k) { return pair_loads && k >= -1 && k <= n2; };
        const auto first_position = [&](int k) { return (fp + 1 + lj + k) & 1; };  // of the pair's first colour
        RealPair in_below = load_pair_if(in + plane_offset(k0 - 2), loads_plane(k0 - 2));
        RealPair in_here = load_pair_if(in + plane_offset(k0 - 1), loads_plane(k0 - 1));
        RealPair in_above = load_pair_if(in + plane_offset(k0), loads_plane(k0));
        RealPair in_ahead = load_pair_if(in + plane_offset(k0 + 1), loads_plane(k0 + 1));
        RealPair b_below{0, 0};
        RealPair b_here = load_pair_if(b + plane_offset(k0 - 1), loads_plane(k0 - 1));
        RealPair b_above = load_pair_if(b + plane_offset(k0), loads_plane(k0));
        Real first_below = 0, first_here = 0;  // new first colour of the pair at planes j - 2 and j - 1
        if (row_warp) scratch.old_second[(k0 - 1) & 1][c + 1][lane] = cell_of(in_here, first_position(k0 - 2));
        team.team_barrier();
        for (int j = k0 - 1; j <= k1; ++j) {
          if (row_warp) {
            // The first colour of plane j from old values only.
            const int p = first_position(j), li = x - 1 + p;
            const Real from_west = from_lane_below(in_here.odd);
            const Real from_east = from_lane_above(in_here.even);
            Real first_now = 0;
            if (row_owned && li >= 0 && li < n0 && j >= 0 && j < n2) {
              const Real* centre = in + plane_offset(j) + p;
              LoadedStencil around;
              around.west = p == 1 ? in_here.even : lane > 0 ? from_west : centre[-1];
              around.east = p == 0 ? in_here.odd : lane < lanes - 1 ? from_east : centre[1];
              around.south = c == -1 ? centre[-st.row] : scratch.old_second[j & 1][c][lane];
              around.north = c == tile_rows ? centre[st.row] : scratch.old_second[j & 1][c + 2][lane];
              around.below = cell_of(in_below, p);
              around.above = cell_of(in_above, p);
              first_now = s.relaxed(around, cell_of(b_here, p), cell_of(in_here, p), li, lj, j);
            }
            scratch.old_second[(j + 1) & 1][c + 1][lane] = cell_of(in_above, p);
            scratch.new_first[j & 1][c + 1][lane] = first_now;
            // The second colour of plane m = j - 1 (at the place of plane j's first colour) from the new first colour.
            const int m = j - 1, li2 = x - 1 + p;
            const Real first_west = from_lane_below(first_here);
            const Real first_east = from_lane_above(first_here);
            if (own_row && m >= k0 && m < k1) {
              bool second_in = li2 >= 0 && li2 < n0;
              Real second = 0;
              if (second_in && (s.away_from_faces(li2, lj, m) || !s.on_shared_face(li2, lj, m))) {
                LoadedStencil around;
                around.west = p == 1 ? first_here : lane > 0 ? first_west : scratch.rim_first[m & 1][0][c];
                around.east = p == 0 ? first_here : lane < lanes - 1 ? first_east : scratch.rim_first[m & 1][1][c];
                around.south = scratch.new_first[m & 1][c][lane];
                around.north = scratch.new_first[m & 1][c + 2][lane];
                around.below = first_below;
                around.above = first_now;
                second = s.relaxed(around, cell_of(b_below, p), cell_of(in_below, p), li2, lj, m);
              } else {
                second_in = false;
              }
              const int li1 = x - 1 + (1 - p);
              const bool first_in = li1 >= 0 && li1 < n0;
              const RealPair pair = p == 0 ? RealPair{second, first_here} : RealPair{first_here, second};
              const bool even_in = p == 0 ? second_in : first_in, odd_in = p == 0 ? first_in : second_in;
              Real* target = out + plane_offset(m);
              if (even_in && odd_in) {
                *reinterpret_cast<RealPair*>(target) = pair;
              } else if (even_in) {
                target[0] = pair.even;
              } else if (odd_in) {
                target[1] = pair.odd;
              }
            }
            first_below = first_here;
            first_here = first_now;
            in_below = in_here;
            in_here = in_above;
            in_above = in_ahead;
            b_below = b_here;
            b_here = b_above;
            in_ahead = load_pair_if(in + plane_offset(j + 3), loads_plane(j + 3));
            b_above = load_pair_if(b + plane_offset(j + 2), loads_plane(j + 2));
          } else if (lane < 2 * tile_rows) {
            // The first colour of plane j in the columns beside the tile, which the second colour of the tile's
            // edge pairs reads at the next step.
            const int side = lane / tile_rows, row = lane % tile_rows, rlj = j0 + row;
            const int rli = side == 0 ? i0 - 2 : i0 + 2 * lanes - 1;
            if (((rli + rlj + j) & 1) == fp && rli >= 0 && rli < n0 && rlj < n1 && j >= k0 && j < k1) {
              const long long o = st.at(rli + 1, rlj + 1, j + 1);
              scratch.rim_first[j & 1][side][row] = s.relaxed(PointNeighbours{in + o, st}, b[o], in[o], rli, rlj, j);
            }
          }
          team.team_barrier();
        }
      });
  return true;
}
#else
bool fused_sweep_by_columns(Field, Field, Field, const ColourStencil&, int, int) { return false; }
#endif

}  // namespace eddy::solver
