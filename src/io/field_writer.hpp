#pragma once
// Field output for ParaView: per output step one HDF5 file `fields_NNNNNN.h5` with cell-centred global datasets
//   /velocity (nz, ny, nx, 3), /pressure, /vorticity (2D: w_z; 3D: |curl u|), /q_criterion (nz, ny, nx)
//   and one (nz, ny, nx) dataset per transported scalar, named after it (/temperature, /dye)
// and file attributes time, step, dimensions, cells, origin, spacing (the last three in x, y, z order);
// plus `fields.xmf`, rewritten atomically after each output so a running simulation is always viewable.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "io/cell_quantities.hpp"
#include "io/hdf5_file.hpp"
#include "io/xdmf.hpp"
#include "parallel/context.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace eddy::io {

class FieldWriter {
 public:
  /// Output of the arrays output.fields selects (config::output_arrays) into `run_dir`. A restart passes the step
  /// of its checkpoint: earlier field files already in `run_dir` stay listed in fields.xmf, later ones are dropped.
  FieldWriter(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
              parallel::Context& context, const std::filesystem::path& run_dir, long long restart_step = -1);

  /// Writes the state (ghosts filled by the caller) and the selected `scalars` (owned cells) as step `step` at
  /// `time`; collective; returns the file path.
  std::filesystem::path write(const fields::FlowState& state, const std::vector<fields::NamedField>& scalars,
                              double time, long long step);

  /// Names of the datasets each output holds.
  const std::vector<XdmfArray>& arrays() const { return arrays_; }
  /// Name of the field file of a step (fields_000042.h5).
  static std::string file_name(long long step);

 private:
  void index_existing_outputs(long long restart_step, const std::vector<std::string>& candidates);
  void stage_scalars(const std::vector<fields::NamedField>& scalars, int ghost);

  grid::Decomposition decomp_;
  parallel::Context* context_;
  std::filesystem::path run_dir_;
  WriteMode mode_;
  std::vector<XdmfArray> arrays_;
  XdmfGrid xdmf_grid_;
  std::vector<XdmfStep> steps_;  ///< outputs listed in fields.xmf (rank 0)
  CellQuantities cells_;
  // Host copies of the cell values, page-locked on GPUs so that each output's copies run at the link's speed.
  Kokkos::View<Real****, Kokkos::LayoutLeft, Kokkos::SharedHostPinnedSpace> velocity_host_;
  Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::SharedHostPinnedSpace> pressure_host_, vorticity_host_,
      q_criterion_host_;
  Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::HostSpace> solid_host_;  // with bodies: the solid fractions
  std::vector<char> forced_cells_;         // with bodies: cells whose pressure the forcing sets (written as NaN)
  std::vector<std::string> scalar_names_;  ///< the scalars written, in file order
  std::vector<Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>> scalar_cells_;
  std::vector<Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::SharedHostPinnedSpace>> scalar_host_;
};

}  // namespace eddy::io
