#pragma once
// Planes of cells (deck section `planes`): per write one HDF5 file planes/<name>_NNNNNN.h5 holding the layer of cells
// normal to the plane's axis whose centres lie nearest its coordinate, in the layout of the field files (datasets
// /velocity (nz, ny, nx, 3) and /pressure, /<scalar> (nz, ny, nx) with one cell along the axis; attributes time, step,
// axis, index, position, dimensions, cells, origin, spacing) and planes/<name>_NNNNNN.xmf to open it in ParaView.
// The ranks that hold the layer send it to rank 0, which writes the file.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "parallel/context.hpp"

#include <filesystem>
#include <vector>

namespace eddy::io {

/// The global index of the layer of cells a plane takes along its axis, and that layer's centre coordinate.
struct PlaneLayer {
  int index = 0;
  double position = 0;
};
/// The layer of `plane` on the grid of `decomp`.
PlaneLayer plane_layer(const config::PlaneConfig& plane, const grid::GlobalGrid& grid);

/// Writes `plane` of `state` (velocity ghosts valid) and the `scalars` as step `step` at `time` into
/// `run_dir`/planes (collective).
void write_plane(const config::PlaneConfig& plane, const fields::FlowState& state,
                 const std::vector<fields::NamedField>& scalars, const grid::Decomposition& decomp,
                 parallel::Context& context, const std::filesystem::path& run_dir, double time, long long step);

}  // namespace eddy::io
