#pragma once
// Red-black Gauss-Seidel on the cell-centred Laplacian, over-relaxed by a factor omega (successive over-relaxation:
// the new value is (1 - omega) old + omega times the Gauss-Seidel value; omega = 1 is plain Gauss-Seidel). A cell's
// colour is (global i + j + k) % 2; a sweep updates its first colour from the old values of the other, then the second
// colour from the new first colour. Physical faces are folded into the stencil (the ghost is +-the cell for neumann /
// dirichlet, solved for implicitly), so a sweep reads only the ghosts shared with neighbour ranks or periodic wraps.
//
// Two forms with the same arithmetic per cell:
//  - colour passes (red_black.cpp): one in-place kernel per colour, the shared ghosts exchanged in between; the
//    portable form, and the GPU form on levels too small for the fused sweep to pay;
//  - the fused sweep (red_black_tiles.cpp): the old field is read once and the new one written into a second field.
//    Each team takes a tile of x-y columns and marches up a chunk of z planes, keeping the first colour of the last
//    planes (tile plus a one-cell rim) in team scratch memory; the second colour of a plane is computed from there, so
//    the first colour never makes a round trip through device memory. In 3D a plane is swept in two phases: every
//    thread computes one first-colour pair of the tile or its rim, then after a barrier the tile's pairs their second
//    colour. In 2D each thread owns a pair of neighbouring cells of a tile row and per plane computes its first-colour
//    cell of plane j, the rim's by a few threads more, and its second-colour cell of plane j - 2. Second-colour cells
//    on a shared face need the neighbour's new first colour: after the exchange a small kernel updates them in place.
#include "solver/poisson_level.hpp"

namespace eddy::solver {

/// One update with relaxation factor omega in (0, 2), in place, of the cells of one colour ((i + j + k) % 2 == colour).
/// Where a periodic axis of an even number of cells is not split between ranks, the cells on its faces read the owned
/// cells their ghosts mirror: the results are those of valid ghosts, whether or not they are.
void red_black_sweep(Field x, Field b, const PoissonLevel& level, int colour, Real relaxation);

/// True when red_black_sweep reads no ghost of `level` (every face is physical or wraps onto the block itself over an
/// even number of cells): no exchange is needed between its colours.
bool colour_passes_read_no_ghosts(const PoissonLevel& level);

/// True where the fused sweep can be the faster form: on GPUs; on CPUs its team loops cost more than the colour
/// passes.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
inline constexpr bool fused_sweep_pays = true;
#else
inline constexpr bool fused_sweep_pays = false;
#endif

/// True when `level` can take the fused sweep: at least two cells per axis of the stencil on this rank.
bool fused_sweep_fits(const PoissonLevel& level);

/// True where the fused sweep is the faster form on `level`: on GPUs, where a team's chunk of z planes is long
/// enough that the two rim planes it recomputes cost little (at least 16 planes), and on single planes.
bool fused_sweep_pays_on(const PoissonLevel& level);

/// out = a red-black sweep of `in` (first colour `first`) on the owned cells, except the second-colour cells on
/// faces shared with another rank or a periodic wrap; the ghosts of `in` are valid, those of `out` are not written.
/// `planes` is the z planes per team (0: chosen from the level's size). A 3D block of 2^31 points or more, which the
/// fused sweep's int offsets cannot address, takes the colour passes on a copy of `in` (ghosts included) instead.
void fused_sweep_interior(Field out, Field in, Field b, const PoissonLevel& level, int first, Real relaxation,
                          int planes = 0);

/// The second-colour cells on shared faces, in place, from the first colour of `x` (its shared ghosts exchanged);
/// `old` is the field before the sweep (the cells' old values, and their neighbours across a periodic wrap over an odd
/// number of cells).
void sweep_shared_faces(Field x, Field old, Field b, const PoissonLevel& level, int second, Real relaxation);

}  // namespace eddy::solver
