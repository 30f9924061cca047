#pragma once
#include "grid/grid.hpp"
// The XDMF sidecar that lets ParaView open a time series of HDF5 field files.
//
// Why XDMF + HDF5: XDMF is ParaView's long-standing reader for time series of HDF5 datasets. The heavy data stays
// in plain HDF5 (one dataset per field per step, readable by h5py or any HDF5 tool), the small XML file only says
// how to interpret it, it does not care whether a serial or a parallel writer made the HDF5 files, and no conversion
// step is needed. The grid is a 3DCoRectMesh (uniform, given by origin and spacing); a 2D run is written as one
// cell layer in z, which ParaView reads as cell data on a flat 3D image (tested in tests/io).
#include "core/types.hpp"

#include <string>
#include <vector>

namespace eddy::io {

/// A cell array of one output: its dataset name and number of components (1 scalar, 3 vector).
struct XdmfArray {
  std::string name;
  int components = 1;
};

/// One output step: the HDF5 file (relative to the XDMF file) and the arrays it holds.
struct XdmfStep {
  long long step = 0;
  double time = 0;
  std::string file;
  std::vector<XdmfArray> arrays;
};

/// The uniform grid in physical units, x, y, z order (the writer turns it into XDMF's z, y, x order).
struct XdmfGrid {
  Int3 cells{1, 1, 1};
  Real3 origin{0, 0, 0};
  Real3 spacing{1, 1, 1};
  /// The cells + 1 node coordinates of every axis where the grid is stretched (a rectilinear grid); empty: uniform.
  std::array<std::vector<double>, 3> nodes{};
};

/// The XDMF grid of a global grid: uniform, or rectilinear with its face coordinates where any axis is stretched.
XdmfGrid xdmf_grid_of(const grid::GlobalGrid& g);

/// XDMF text of a temporal collection with one uniform grid per step, cell-centred attributes.
std::string xdmf_time_series(const XdmfGrid& grid, const std::vector<XdmfStep>& steps);

}  // namespace eddy::io
