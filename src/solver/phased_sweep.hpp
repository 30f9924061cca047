#pragma once
// The fused red-black sweep (solver/red_black.hpp) of a 3D block by tiles of 64 x 8 x-y columns, in two phases per
// plane with one barrier. First every thread of a team computes the first colour of one pair of cells of plane j, over
// the tile and a rim of one pair along x and one row along y, into a ring of four planes in team scratch; then the
// tile's pairs compute their second colour of plane j - 1 from the ring and store both cells. A pair's second-colour
// cell has its first-colour neighbours at its own place in the rows and planes around it (the colours alternate), so
// the ring holds one value per pair. Cells away from the x and y faces take a short path that tests only the z faces
// of their plane (a folded one changes the diagonal, a shared one leaves the plane's second colour to
// sweep_shared_faces); the others take the general stencil. With 40 registers a thread, four teams of 352 threads fit
// a multiprocessor.
#include "solver/colour_stencil.hpp"

namespace eddy::solver {

/// out = the fused sweep of `in` (first colour `first`) of a 3D block, `chunk` z planes per team, but the second colour
/// on shared faces; the fields' points are addressed by int offsets.
void sweep_by_phases(Field out, Field in, Field b, const ColourStencil& s, int first, int chunk);

}  // namespace eddy::solver
