#pragma once
// The fused red-black sweep (solver/red_black.hpp) of the tiles whose cells and rim lie away from every x and y face of
// a 3D block, in two phases per plane with one barrier. First every thread of a team computes the first colour of one
// pair of cells of plane j, over the tile and a rim of one pair along x and one row along y, into a ring of four planes
// in team scratch; then the tile's pairs compute their second colour of plane j - 1 from the ring and store both
// cells. A pair's second-colour cell has its first-colour neighbours at its own place in the rows and planes around it
// (the colours alternate), so the ring holds one value per pair. The code has no test of the x and y faces, only of
// the z faces: a folded one changes its plane's diagonal, a shared one leaves its plane's second colour to
// sweep_shared_faces. With 37 registers a thread, four teams of 352 threads fit a multiprocessor.
// fused_sweep_interior sweeps the other tiles by pairs (solver/fused_sweep.cpp).
#include "solver/colour_stencil.hpp"

namespace eddy::solver {

/// A box of tiles [x0, x1) x [y0, y1) (tile indices along x and y); empty where x1 <= x0 or y1 <= y0.
struct TileBox {
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  KOKKOS_INLINE_FUNCTION int width() const { return x1 > x0 && y1 > y0 ? x1 - x0 : 0; }
  KOKKOS_INLINE_FUNCTION int count() const { return width() * (y1 > y0 ? y1 - y0 : 0); }
};

/// The tiles of a plane of tiles_x x tiles_y outside `box`, numbered row by row: the tile (x, y) of number q.
KOKKOS_INLINE_FUNCTION Kokkos::Array<int, 2> tile_outside(int q, int tiles_x, const TileBox& box) {
  const int below = box.count() > 0 ? box.y0 * tiles_x : 0;
  if (q < below || box.count() == 0) return {q % tiles_x, q / tiles_x};
  q -= below;
  const int side = tiles_x - box.width(), beside = (box.y1 - box.y0) * side;
  if (q < beside) {
    const int x = q % side;
    return {x < box.x0 ? x : x + box.width(), box.y0 + q / side};
  }
  q -= beside;
  return {q % tiles_x, box.y1 + q / tiles_x};
}

/// The tiles of tx x ty cells of `s` whose cells and rim (two cells along x, one row along y) lie at least one cell
/// from every x and y face.
TileBox inner_tiles(const ColourStencil& s, int tx, int ty);

/// out = the fused sweep of `in` (first colour `first`) on the tiles of 64 x 8 cells in `box` (3D), `chunk` z planes
/// per team, but the second colour on shared z faces; the fields' points are addressed by int offsets.
void sweep_inner_tiles_by_phases(Field out, Field in, Field b, const ColourStencil& s, int first, int chunk,
                                 const TileBox& box);

}  // namespace eddy::solver
