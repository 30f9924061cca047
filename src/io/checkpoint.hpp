#pragma once
// Checkpoint and restart: `checkpoints/checkpoint_NNNNNN.h5` in the run folder holds the complete state.
//
// Datasets /u, /v, /w, /p (nz, ny, nx): the owned values of every rank as one global array each. For the faces this
// is the face on the high side of every cell, so the only faces not stored are the low physical boundary faces,
// which the boundary conditions define; after `load` the caller applies the boundary conditions and the halo
// exchange, which makes the restarted state identical to the one written. Each transported scalar (temperature,
// dyes) is one more cell dataset, /scalar_<name>, whose ghosts the caller refills the same way. Each dataset carries
// a rank-count independent checksum (io/checksum.hpp), so a checkpoint written on 2 ranks is verified when read on 4.
// File attributes: time, step, dt, deck (the resolved deck text), eddy_version, dimensions, cells, length, origin,
// viscosity, density, scalars (the scalar names in deck order, comma-separated; absent in checkpoints written before
// scalars were stored, which count as holding none).
//
// Written atomically: every rank writes `checkpoint_NNNNNN.h5.tmp`, then rank 0 renames it once all have finished,
// so a crash mid-write never leaves a file that looks complete. Only the newest output.keep_checkpoints (0 = all)
// checkpoints with a step below the new one are kept; checkpoints of later steps (left by a run that was restarted
// from an earlier checkpoint) and any other file are never deleted.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "io/hdf5_file.hpp"
#include "parallel/context.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace eddy::io {

/// What a checkpoint says about the run it came from.
struct CheckpointMeta {
  double time = 0;
  long long step = 0;
  double dt = 0;
  std::string deck_text;     ///< the resolved deck of the run that wrote it
  std::string eddy_version;  ///< EDDY_VERSION of the writer
  std::filesystem::path path;
  std::vector<std::string> warm_start;                  ///< the warm-start fields asked for that the checkpoint held
  std::vector<std::pair<std::string, double>> numbers;  ///< the warm-start numbers asked for that it held
};

class Checkpointer {
 public:
  /// Owned values of the stored fields (nx, ny, nz, field) in host memory that a GPU copies into directly.
  using HostValues = Kokkos::View<Real****, Kokkos::LayoutLeft, Kokkos::SharedHostPinnedSpace>;

  /// Checkpoints of `deck`'s run in `run_dir`/checkpoints; `deck_text` (the resolved deck) is stored in each.
  Checkpointer(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
               parallel::Context& context, const std::filesystem::path& run_dir, std::string deck_text);

  /// Writes the owned values of `state`, of every scalar and of every warm-start field (solver state that makes the
  /// continued run bit-identical), and the warm-start numbers as file attributes (collective); returns the path of
  /// the finished checkpoint.
  std::filesystem::path write(const fields::FlowState& state, double time, long long step, double dt,
                              const std::vector<fields::NamedField>& scalars = {},
                              const std::vector<fields::NamedField>& warm_start = {},
                              const std::vector<std::pair<std::string, double>>& numbers = {});

  /// Reads this rank's block of a checkpoint ("latest" = newest in run_dir/checkpoints) into the owned values of
  /// `state` and of each of `scalars` by name (ghosts untouched: apply boundary conditions and halo exchange next).
  /// Works on any rank count. Throws eddy::Error for a missing, truncated or corrupted file (checksum), another grid,
  /// other physics, or scalars other than `scalars` (one missing, or one the checkpoint holds that is not asked for).
  /// Of `warm_start`, the fields the checkpoint holds are read and listed in the result; the others are left alone.
  /// Of the warm-start `numbers` named, those it holds are in the result.
  CheckpointMeta load(const std::string& path_or_latest, fields::FlowState& state,
                      const std::vector<fields::NamedField>& scalars = {},
                      const std::vector<fields::NamedField>& warm_start = {},
                      const std::vector<std::string>& numbers = {}) const;

  /// The checkpoint file `path_or_latest` names (collective: rank 0 looks, every rank gets the answer).
  std::filesystem::path resolve(const std::string& path_or_latest) const;
  /// The checkpoints folder.
  const std::filesystem::path& directory() const { return directory_; }
  /// Name of the checkpoint of a step (checkpoint_000042.h5).
  static std::string file_name(long long step);

 private:
  /// The deck's settings of scalar `name`, or null when the deck does not transport it.
  const config::ScalarConfig* scalar_config(const std::string& name) const;
  void check_compatible(const H5Reader& file, const std::filesystem::path& path) const;
  void check_scalars(const H5Reader& file, const std::filesystem::path& path,
                     const std::vector<fields::NamedField>& scalars) const;
  void remove_old_checkpoints(long long newest_step) const;

  config::Deck deck_;
  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  parallel::Context* context_;
  std::filesystem::path directory_;
  std::string deck_text_;
  WriteMode mode_;
  // Kept from one checkpoint to the next, page-locked on GPUs: a copy into freshly allocated host memory is slowed by
  // the first touch of every page, where a page-locked copy runs at the link's speed (measured in
  // tests/perf/RESULTS.md).
  HostValues host_values_;
};

}  // namespace eddy::io
