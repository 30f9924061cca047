#pragma once
// One grid level of a Poisson problem (the fine grid or a multigrid coarsening of it), the ghost filling of its
// fields, and the coarsening rule that builds the multigrid hierarchy.
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "parallel/halo_exchange.hpp"
#include "solver/laplacian.hpp"
#include "solver/pressure_ghosts.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace eddy::solver {

/// The rank's block of one level, its spacing and face conditions.
struct PoissonLevel {
  grid::Decomposition decomp;
  fields::LocalShape shape;
  Real3 spacing{1, 1, 1};
  PressureFaces faces{};
  PhaseTimers* timers = nullptr;  ///< where the solver's communication is charged (none: not timed)
  /// Times the exchanges that only enqueue stream work (peer links, NCCL) on the device (none: host timing only).
  parallel::ExchangeClock* exchange_clock = nullptr;

  /// The stencil weights of this level.
  StencilWeights weights() const { return stencil_weights(spacing, decomp.global.dim); }
  /// Cells of this level over all ranks.
  long long global_cells() const { return decomp.global.total_cells(); }
  /// True when no face is Dirichlet (constants are in the null space).
  bool singular() const;
};

/// Coarsening factor (1 or 2 per axis) from `fine` to the next level, or {1, 1, 1} when it is the coarsest. An axis
/// is halved while every rank's block along it is even and at least 4 cells (known from the global decomposition,
/// so all ranks agree) and its spacing is the level's finest (semi-coarsening towards square cells); z is never
/// coarsened in 2D.
Int3 coarsening_factor(const PoissonLevel& fine);

/// The level `fine` coarsened by `factor` (ghost width 1, spacing scaled by the factor, same faces).
PoissonLevel coarsen(const PoissonLevel& fine, const Int3& factor);

/// Fills the ghosts of fields of one level: halo exchange (one, built on first use), then physical faces.
class GhostFiller {
 public:
  /// With `in_plane`, a 2D level leaves its z ghosts alone (the 2D stencil never reads them): no z wrap copies.
  GhostFiller(parallel::Context& context, const PoissonLevel& level, parallel::Transport transport,
              bool in_plane = false);
  /// Makes every first-layer ghost of `f` valid.
  void fill(Field f);
  /// Only the ghosts shared with neighbour ranks or periodic wraps (what red-black sweeps read).
  void exchange(Field f);
  /// True unless the exchange, once built, waits on the host (HaloExchange::enqueues_only).
  bool enqueues_only() const;

 private:
  parallel::HaloExchange& halo_for(Field f);

  parallel::Context* context_;
  PoissonLevel level_;
  grid::Decomposition exchanged_;  // the decomposition the halo exchanges see (no z wrap when in plane)
  bool has_messages_or_copies_ = true;
  parallel::Transport transport_;
  // One exchange, built on first use and rebound to each field: its buffers (and, between GPUs, the neighbours'
  // mappings of them) stay the same for every field, so a recorded cycle never refers to an exchange that is gone.
  std::unique_ptr<parallel::HaloExchange> halo_;
  const Real* bound_ = nullptr;
};

}  // namespace eddy::solver
