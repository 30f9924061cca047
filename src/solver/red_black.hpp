#pragma once
// Red-black Gauss-Seidel on the cell-centred Laplacian, over-relaxed by a factor omega (successive over-relaxation:
// the new value is (1 - omega) old + omega times the Gauss-Seidel value; omega = 1 is plain Gauss-Seidel). A cell's
// colour is (global i + j + k) % 2; a sweep updates its first colour from the old values of the other, then the second
// colour from the new first colour. Physical faces
// are folded into the stencil (the ghost is +-the cell for neumann / dirichlet, solved for implicitly), so a sweep
// reads only the ghosts shared with neighbour ranks or periodic wraps.
//
// Two forms with the same arithmetic per cell:
//  - colour passes: one in-place kernel per colour, the shared ghosts exchanged in between;
//  - the fused sweep: the old field is read once and the new one written into a second field. Each team takes a tile
//    of x-y columns and marches up a chunk of z planes, keeping the first colour of the last planes (tile plus a
//    one-cell rim) in team scratch memory; the second colour of a plane is computed from there, so the first colour
//    never makes a round trip through device memory. Two kernels take the tiles (solver/fused_sweep.cpp): by phases
//    (solver/phased_sweep.hpp), the default in 3D, every thread computes one first-colour cell of the tile or its rim,
//    and after a barrier the tile's pairs their second colour; by pairs (2D, and the other tiles timed in
//    `eddy bench stencil`), each thread owns a pair of neighbouring cells of a tile row and per plane computes its
//    first-colour cell of plane j, the rim's by a few threads more, and its second-colour cell of plane j - 2.
//    Second-colour cells on a shared face need the neighbour's new first colour: after the exchange a small kernel
//    updates them in place.
#include "solver/poisson_level.hpp"

namespace eddy::solver {

/// One update with relaxation factor omega in (0, 2), in place, of the cells of one colour ((i + j + k) % 2 == colour).
/// Where a periodic axis of an even number of cells is not split between ranks, the cells on its faces read the owned
/// cells their ghosts mirror: the results are those of valid ghosts, whether or not they are.
void red_black_sweep(Field x, Field b, const PoissonLevel& level, int colour, Real relaxation);

/// True when red_black_sweep reads no ghost of `level` (every face is physical or wraps onto the block itself over an
/// even number of cells): no exchange is needed between its colours.
bool colour_passes_read_no_ghosts(const PoissonLevel& level);

/// True where the fused sweep is the faster form: on GPUs (H200, 512^3: 1.59 ms against 2.05 ms for the two colour
/// passes); on CPUs its team loops cost more than the passes (`eddy bench stencil`).
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
inline constexpr bool fused_sweep_pays = true;
#else
inline constexpr bool fused_sweep_pays = false;
#endif

/// True when `level` can take the fused sweep: at least two cells per axis of the stencil on this rank.
bool fused_sweep_fits(const PoissonLevel& level);

/// True where the fused sweep is the faster form on `level`: on GPUs, where a team's chunk of z planes is long
/// enough that the two rim planes it recomputes cost little (at least 16 planes: H200, V(2,2) cycle at 128^3 in
/// 0.31 ms with colour passes against 0.45 ms fused, whose teams there take 4 planes each), and on single planes.
bool fused_sweep_pays_on(const PoissonLevel& level);

/// Cells per team of the fused sweep along x and y, and whether a 3D block is swept by phases (`eddy bench stencil`
/// times each; by phases the 64 x 8 tiles ran the sweep 17-18% faster than by pairs on an H100, tests/perf/RESULTS.md).
enum class SweepTile { x64_y8_phased, x64_y8, x64_y4, x64_y16 };

/// Every tile of the fused sweep, the default first.
inline constexpr SweepTile sweep_tiles[] = {SweepTile::x64_y8_phased, SweepTile::x64_y8, SweepTile::x64_y4,
                                            SweepTile::x64_y16};

/// A tile's name in benchmark tables, such as "64x8".
const char* describe(SweepTile tile);

/// out = a red-black sweep of `in` (first colour `first`) on the owned cells, except the second-colour cells on
/// faces shared with another rank or a periodic wrap; the ghosts of `in` are valid, those of `out` are not touched.
/// `planes` is the z planes per team (0: chosen from the level's size).
void fused_sweep_interior(Field out, Field in, Field b, const PoissonLevel& level, int first, Real relaxation,
                          int planes = 0, SweepTile tile = SweepTile::x64_y8_phased);

/// The second-colour cells on shared faces, in place, from the first colour of `x` (its shared ghosts exchanged);
/// `old` is the field before the sweep (the cells' old values, and their neighbours across a periodic wrap over an odd
/// number of cells).
void sweep_shared_faces(Field x, Field old, Field b, const PoissonLevel& level, int second, Real relaxation);

}  // namespace eddy::solver
