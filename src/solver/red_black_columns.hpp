#pragma once
// The fused red-black sweep by register columns (CUDA): a team takes a tile of 64 x 8 cells and a chunk of z planes. A
// thread owns an aligned pair of cells of a tile row and keeps the pair's old values of three planes, its right-hand
// side and its new first colour of the last planes in registers; x neighbours come from the neighbouring threads by
// warp shuffles, y neighbours through team scratch. Per plane j it computes its first-colour cell of plane j and its
// second-colour cell of plane j - 1 and stores the pair of plane j - 1 with one 16-byte store: one barrier per plane,
// two 16-byte loads per pair. Two warps compute the first colour of the rim rows, one more that of the rim columns.
#include "solver/colour_stencil.hpp"

namespace eddy::solver {

/// out = the fused sweep of `in` (first colour `first`, `planes` z planes per team) as fused_sweep_interior computes
/// it; false, with nothing done, where this form does not apply: not a CUDA build, a 2D level, ghosts wider than one
/// cell or fields not aligned to pairs of values.
bool fused_sweep_by_columns(Field out, Field in, Field b, const ColourStencil& s, int first, int planes);

}  // namespace eddy::solver
