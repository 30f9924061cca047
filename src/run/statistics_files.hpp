#pragma once
// What the running averages write into the run folder's statistics/ (each write collective):
//   profiles_NNNNNN.csv  the profiles along the axis statistics.average_over leaves (rank 0 writes): `# key = value`
//                        lines (axis, averaged_over, start_time, end_time, samples, viscosity, walls, and for a
//                        channel half_height, bulk_velocity, friction_velocity, re_tau, skin_friction), then a CSV
//                        table: the cell-centre coordinate and the columns of physics::statistics_columns;
//   means_NNNNNN.h5      the same columns per cell, (nz, ny, nx) datasets, with attributes time, step, start_time,
//                        end_time, samples, origin, spacing; and means_NNNNNN.xmf to open it in ParaView.
#include "config/deck.hpp"
#include "grid/decomposition.hpp"
#include "io/hdf5_file.hpp"
#include "parallel/context.hpp"
#include "physics/flow_statistics.hpp"

#include <filesystem>

namespace eddy::run {

/// Writes the window's profiles (where there are any) and 3D means as step `step` at `time`; returns the text of the
/// wall units for the log ("" where they do not apply).
std::string write_statistics_files(const physics::FlowStatistics& statistics, const config::Deck& deck,
                                   const grid::Decomposition& decomp, parallel::Context& context,
                                   const std::filesystem::path& run_dir, io::WriteMode mode, long long step);

}  // namespace eddy::run
