#pragma once
// The red-black sweeps' view of a level (solver/red_black.hpp): its stencil in local cell indices, its faces, and the
// flat offsets of its fields. Shared by the colour passes and the fused sweeps.
#include "core/error.hpp"
#include "solver/poisson_level.hpp"

#include <initializer_list>

namespace eddy::solver {

/// A level's red-black stencil in local cell indices (0 .. n - 1 along each axis).
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

  /// True when cell (li, lj, lk) has colour `colour`.
  KOKKOS_INLINE_FUNCTION bool has_colour(int li, int lj, int lk, int colour) const {
    return ((li + lj + lk + offset_parity) & 1) == colour;
  }

  /// True when no neighbour of the cell is a ghost (one unsigned compare per axis).
  KOKKOS_INLINE_FUNCTION bool away_from_faces(int li, int lj, int lk) const {
    return static_cast<unsigned>(li - 1) < static_cast<unsigned>(n[0] - 2) &&
           static_cast<unsigned>(lj - 1) < static_cast<unsigned>(n[1] - 2) &&
           (!z_active || static_cast<unsigned>(lk - 1) < static_cast<unsigned>(n[2] - 2));
  }

  /// True when the cell lies on a face whose ghosts come from a neighbour rank or a periodic wrap.
  KOKKOS_INLINE_FUNCTION bool on_shared_face(int li, int lj, int lk) const {
    return (li == 0 && shared[0]) || (li == n[0] - 1 && shared[1]) || (lj == 0 && shared[2]) ||
           (lj == n[1] - 1 && shared[3]) || (lk == 0 && shared[4]) || (lk == n[2] - 1 && shared[5]);
  }

  /// True when an update reads the cell's old value (omega != 1); plain Gauss-Seidel passes 0 for it.
  KOKKOS_INLINE_FUNCTION bool blends() const { return kept != 0; }

  /// The over-relaxed Gauss-Seidel value of cell (li, lj, lk) given its right-hand side and old value; at(di, dj, dk)
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

/// Flat offsets of the fields of one level (all of one shape): a point (i, j, k) is at i + j * row + k * plane.
struct Strides {
  int row = 0;
  long long plane = 0;
  KOKKOS_INLINE_FUNCTION long long at(int i, int j, int k) const {
    return i + static_cast<long long>(j) * row + k * plane;
  }
};

/// The strides of `f`, checked to be those of every field of `same_shape`.
inline Strides strides_of(Field f, std::initializer_list<Field> same_shape) {
  const Strides s{static_cast<int>(f.stride(1)), static_cast<long long>(f.stride(2))};
  for (const auto& other : same_shape) {
    require(other.stride(1) == f.stride(1) && other.stride(2) == f.stride(2),
            "red-black sweep: fields of one level differ in shape");
  }
  return s;
}

/// Whether face f of the level's block is a periodic wrap onto the block itself (its axis not split between ranks)
/// over an even number of cells.
bool wraps_onto_itself(const PoissonLevel& level, int f);

/// The stencil of the level's sweeps; with `wrap_in_place` the faces that wrap onto the block itself read the owned
/// cells they mirror instead of their ghosts (the colour passes; not the fused sweep, whose neighbours are its own).
ColourStencil colour_stencil(const PoissonLevel& level, Real relaxation, bool wrap_in_place = false);

}  // namespace eddy::solver
