#pragma once
// Prolongation: x += the linear interpolation of the coarse correction between cell centres (weights 3/4 and 1/4
// along each coarsened axis). The portable form takes one thread per pair of fine cells that share a coarse parent
// along x (levels coarsened by two along x), or per fine cell (the others); on GPUs, 3D levels coarsened by two along
// every axis take columns of cell pairs two rows at a time, each coarse plane interpolated once per column.
#include "solver/poisson_level.hpp"

#include <initializer_list>

namespace eddy::solver {

/// x += linear interpolation of the coarse correction (coarse ghosts valid, edges and corners included).
void prolong_add(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, const Int3& factor);

/// prolong_add on the ghosts of the faces that mirror owned cells (of a neighbour rank or a periodic wrap), from the
/// coarse ghosts: the fine ghosts valid before stay so after, as an exchange would leave them, up to rounding.
void prolong_add_to_face_ghosts(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse,
                                const Int3& factor);

/// prolong_add where x is coarsened by two, one thread per pair of fine cells of a coarse parent (along y and z by
/// factors fy and fz): the portable form.
void prolong_add_by_parent_pairs(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse, int fy,
                                 int fz);

/// Whether prolong_add_by_columns takes `fields` (unallocated ones skipped) from `fine` coarsened by `factor`: a 3D
/// level coarsened by two along every axis, with even cell counts, an odd ghost width and rows of aligned pairs.
bool fits_prolongation_columns(const PoissonLevel& fine, const Int3& factor, std::initializer_list<Field> fields);

/// prolong_add by two along every axis, each thread marching a column of cell pairs of two fine rows up z
/// (grid/pair_columns.hpp): the GPU form, on any backend; requires fits_prolongation_columns.
void prolong_add_by_columns(Field x, Field coarse_x, const PoissonLevel& fine, const PoissonLevel& coarse);

}  // namespace eddy::solver
