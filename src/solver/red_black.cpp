#include "solver/red_black.hpp"

#include "core/error.hpp"
#include "grid/cell_loops.hpp"
#include "solver/colour_stencil.hpp"

namespace eddy::solver {
namespace {

// Neighbour values read around a point of a field through its flat offsets.
struct PointNeighbours {
  const Real* centre;
  Strides s;
  KOKKOS_INLINE_FUNCTION Real operator()(int di, int dj, int dk) const {
    return centre[di + dj * s.row + dk * s.plane];
  }
};

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

}  // namespace

bool wraps_onto_itself(const PoissonLevel& level, int f) {
  const int axis = f / 2;
  return level.decomp.wraps_onto_itself(axis) && level.decomp.global.cells[axis] % 2 == 0;
}

ColourStencil colour_stencil(const PoissonLevel& level, Real relaxation, bool wrap_in_place) {
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
