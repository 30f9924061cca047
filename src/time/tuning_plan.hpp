#pragma once
// The run's tuning plan: every choice that depends on the machine and changes speed, never results, made once at
// setup in this one place, printed at start ("tuning plan") and recorded in summary.json ("plan"). It starts from the
// deck (parallel.halo_backend, parallel.reduction_backend, parallel.overlap, tuning.*) and resolves what the deck
// leaves to the machine: which transport carries halos and reductions here, how each kernel family runs on this
// build's device, how the ranks write HDF5 files.
#include "config/deck.hpp"
#include "grid/decomposition.hpp"
#include "io/hdf5_file.hpp"
#include "io/json.hpp"
#include "parallel/context.hpp"
#include "parallel/transport.hpp"

#include <string>

namespace eddy::time {

struct TuningPlan {
  parallel::Transport halo = parallel::Transport::mpi;        ///< every halo exchange of the run
  parallel::Transport reductions = parallel::Transport::mpi;  ///< every global reduction of the run
  bool overlap = true;                                        ///< parallel.overlap
  int pair_planes = 8;                                        ///< tuning.pair_planes (GPU stencil loops)
  io::WriteMode hdf5_writes = io::WriteMode::token_passing;   ///< tuning.hdf5_writes, resolved
  std::string kernel_forms;                                   ///< how the kernel families run on this build

  /// The plan in one line for the start-up block.
  std::string describe() const;
  /// The plan for summary.json.
  io::JsonObject json() const;
};

/// The plan for `deck` on `decomp`'s ranks; collective (the peer transport asks every rank). Throws eddy::Error
/// naming the deck key where a request cannot be met on this build or machine.
TuningPlan make_tuning_plan(const config::Deck& deck, const parallel::Context& context,
                            const grid::Decomposition& decomp);

}  // namespace eddy::time
