#pragma once
// Cell-centred quantities for visualisation, computed on the device from the staggered state: velocity interpolated
// from the faces, pressure, vorticity and the Q-criterion from the cell-centred velocity gradient (second order), and
// the owned cells of any cell-centred field (a transported scalar).
#include "fields/field.hpp"
#include "grid/grid.hpp"

namespace eddy::io {

/// Owned-cell arrays, x fastest, so their memory is the C-order array (nz, ny, nx[, 3]) that HDF5 stores.
struct CellQuantities {
  Kokkos::View<Real****, Kokkos::LayoutLeft, MemSpace> velocity;    ///< (3, nx, ny, nz): component fastest
  Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace> pressure;     ///< (nx, ny, nz)
  Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace> vorticity;    ///< 2D: w_z = dv/dx - du/dy; 3D: |curl u|
  Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace> q_criterion;  ///< Q = (|Omega|^2 - |S|^2) / 2
};

/// Allocates the arrays for the owned cells of `shape`.
CellQuantities allocate_cell_quantities(const fields::LocalShape& shape);

/// Copies the owned cells of the cell-centred `field` (ghost width `ghost`) into `out` (nx, ny, nz).
void copy_owned_cells(const Field& field, int ghost, const Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>& out);

/// Fills `out` from `state`, whose ghost layers (one is enough) the caller has filled (halo and boundary conditions).
void compute_cell_quantities(const fields::FlowState& state, const grid::Decomposition& decomp, CellQuantities& out);

}  // namespace eddy::io
