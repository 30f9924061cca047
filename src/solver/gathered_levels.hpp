#pragma once
// The coarse levels of a multigrid hierarchy gathered onto every rank. Below a size, a level's kernels and its
// exchanges (about five per level and cycle) are launch and message latency only. Instead, each rank gathers the
// whole level in one collective, cycles it alone on the hierarchy one rank would build under it, and keeps its own
// block of the result with the ghosts around it. Every rank computes the same values, so below the gathered level a
// cycle on several ranks is the one-rank cycle (to round-off) and exchanges nothing.
#include "solver/multigrid.hpp"

#include <memory>

namespace eddy::solver {

class GatheredLevels {
 public:
  /// Builds the whole level's hierarchy on every rank for `level`, this rank's block of it (collective over the
  /// reducer's ranks). The cycles smooth as `config` and `sweeps` say, as the levels above do.
  GatheredLevels(const PoissonLevel& level, const parallel::Reducer& reducer, const config::PoissonConfig& config,
                 SweepForm sweeps);
  ~GatheredLevels();
  GatheredLevels(const GatheredLevels&) = delete;
  GatheredLevels& operator=(const GatheredLevels&) = delete;

  /// One cycle of `type` for L(x) = b on the whole level, from zero where `from_zero`, else from x's owned cells;
  /// x's owned cells and first-layer ghosts hold the result.
  void cycle(Field x, Field b, config::CycleType type, bool from_zero);
  /// True when the gather only enqueues device work (NCCL), so that a CUDA graph may record the cycle.
  bool on_device() const { return !reducer_->blocks_host(); }
  /// Levels of the whole level's hierarchy, itself included.
  int level_count() const { return cycles_->level_count(); }
  /// The hierarchy the whole level is cycled on.
  const Multigrid& cycles() const { return *cycles_; }

 private:
  // Gathers every rank's owned b, and x unless `from_zero`, into the whole level's fields.
  void gather(Field x, Field b, bool from_zero);

  PoissonLevel level_, whole_;  // this rank's block, and the whole level on one rank
  const parallel::Reducer* reducer_;
  std::unique_ptr<parallel::Context> alone_;  // MPI_COMM_SELF: the whole level's exchanges are local wraps only
  std::unique_ptr<parallel::Reducer> alone_reducer_;
  std::unique_ptr<Multigrid> cycles_;
  Field whole_x_, whole_b_;
  int slot_ = 0;                             // values per rank and field in the gathered buffer
  Kokkos::View<int* [6], MemSpace> blocks_;  // every rank's block: offset, then cells
  Buffer packed_, gathered_;                 // this rank's b then x, and every rank's after the gather
};

}  // namespace eddy::solver
