#pragma once
// Geometric multigrid for the cell-centred Laplacian: V, W or F cycles; red-black Gauss-Seidel, weighted Jacobi or
// Chebyshev smoothing; restriction by averaging the children (fused with the residual); linear interpolation back. The
// coarsest level is solved exactly: densely (gathered onto every rank) when it has at most
// DenseCoarseSolver::max_unknowns cells, else by CG to a tight relative tolerance; either way the cycle does not
// depend on how many ranks share that level. Coarsening stops early once a level fits the dense solver's
// `dense_bottom_cells` (`device_bottom_cells` where its solve is GPU work: one GPU, or the gather through NCCL), where
// a few more tiny levels would only add kernel launches.
//
// On several ranks, the first coarse level at most gather_cells (device_gather_cells where its gather is GPU work) per
// rank is gathered onto every rank and cycled whole there, on the hierarchy one rank would build (GatheredLevels):
// one collective per visit instead of the exchanges of every level below it.
//
// Ghost traffic per level and cycle: red-black sweeps fold physical faces into the stencil, so between colours only
// neighbour-rank and periodic ghosts are exchanged (nothing at all on one rank with walls); physical ghosts are set
// once after each smoothing phase, where the residual and the prolongation read them. The prolongation corrects the
// face ghosts that mirror owned cells from the coarse ghosts as it corrects the cells, so post-smoothing starts with
// no exchange. 2D levels never copy z ghosts.
// On the large levels of GPU runs red-black sweeps run fused (solver/red_black.hpp), each from one of the level's two
// fields into the other, with the same two exchanges per sweep as the colour passes: after an odd number of
// pre-smoothing sweeps the twin holds the iterate, the correction is added there and post-smoothing carries it back;
// a sweep runs in place (colour passes) only where the counts would leave it in the twin. On one GPU, and on several
// whose exchanges go through peer links and whose bottom solve gathers through NCCL, a whole cycle is device work only
// and replays as one CUDA graph (device/launch_graph.hpp).
#include "device/launch_graph.hpp"
#include "solver/chebyshev.hpp"
#include "solver/coarse_solver.hpp"
#include "solver/conjugate_gradient.hpp"
#include "solver/restriction.hpp"

#include <memory>
#include <string>
#include <vector>

namespace eddy::solver {

/// How red-black Gauss-Seidel runs its sweeps (solver/red_black.hpp): `automatic` takes the fused sweep, for pairs of
/// sweeps, on the levels where it is the faster form (fused_sweep_pays_on: large levels on GPUs) and the colour passes
/// elsewhere; `fused` takes it wherever it fits. The iterates agree to round-off.
enum class SweepForm { automatic, colour_passes, fused };

/// How a cycle reaches the GPU: `automatic` replays it as a CUDA graph where its exchanges and bottom solve are device
/// work only (one GPU, or peer links and NCCL), `kernel_by_kernel` launches every kernel from the host; the iterates
/// are the same.
enum class CycleLaunch { automatic, kernel_by_kernel };

class GatheredLevels;

class Multigrid : public Preconditioner {
 public:
  /// Builds the hierarchy under `top` (coarsening rule: see coarsening_factor). Pre- and post-smoothing both sweep red
  /// then black, which converges faster than a symmetric cycle, alone and as the flexible-CG preconditioner.
  Multigrid(const PoissonLevel& top, parallel::Context& context, const parallel::Reducer& reducer,
            const config::PoissonConfig& config, parallel::Transport halo_transport,
            SweepForm sweeps = SweepForm::automatic, CycleLaunch launch = CycleLaunch::automatic);
  ~Multigrid() override;
  /// One cycle for L(x) = b on the top level, from x as given; the ghosts of x are valid on entry and on exit.
  /// `top_restricted`: restrict_top(x, b, ...) ran last, and the cycle starts from the residual it restricted.
  void cycle(Field x, Field b, bool top_restricted = false);
  /// True when a cycle starts by restricting the top level's residual (no pre-smoothing, more than one level).
  bool restricts_first() const;
  /// sums = {|b - L(x)|^2, |b|^2, sum of x} on the top level over all ranks, restricting the residual to the next
  /// level where cycles restrict first: a convergence check that is also the first step of such a cycle.
  void restrict_top(Field x, Field b, Buffer sums, const parallel::Reducer& reducer);
  /// One cycle of `type` instead of the configured one, from x as given, launched kernel by kernel.
  void cycle_as(Field x, Field b, config::CycleType type);
  /// One cycle from z = 0 (the preconditioner of MG-CG).
  void apply(Field z, Field r) override;
  /// Global cells of a level at which coarsening stops when the dense bottom solve can take it.
  static constexpr long long dense_bottom_cells = 64;
  /// The same where the bottom solve is GPU work (one GPU, or the gather through NCCL): one kernel of a warp per row,
  /// cheaper than the launches of a level of 4^3 cells and its transfers.
  static constexpr long long device_bottom_cells = 512;
  /// Cells per rank at or below which a coarse level is gathered onto every rank, where an exchange costs about as
  /// much as sweeping a few hundred cells (MPI on CPUs).
  static constexpr long long gather_cells = 512;
  /// The same where the gather is GPU work (NCCL): a kernel over 64^3 cells takes little more than its launch latency,
  /// and each exchange is a wait for the neighbour GPU between two such kernels (tests/perf/RESULTS.md compares 64^3
  /// with 32^3).
  static constexpr long long device_gather_cells = 262144;
  /// Most cells of a gathered level over all ranks (8 MB a field on every rank).
  static constexpr long long max_gathered_cells = 1 << 20;
  /// Fills the ghosts of a top-level field (in 2D, the z ghosts are left alone).
  GhostFiller& top_ghosts() { return *levels_.front().ghosts; }
  /// Levels of this rank's block, the top included; where coarse levels are gathered, the gathered level is the last.
  int level_count() const { return static_cast<int>(levels_.size()); }
  /// Levels of the hierarchy cycled whole on every rank, the gathered level included (0: none is gathered).
  int gathered_level_count() const;
  /// The hierarchy for logs: "9 levels to 4 x 4 x 8" (or "1 level of 8 x 8 x 1"), and ", cycled whole on every rank
  /// from 32 x 32 x 64" where coarse levels are gathered.
  std::string describe() const;
  /// Cells over all ranks of the coarsest level, gathered levels included.
  Int3 coarsest_cells() const;
  /// True when cycles replay as a CUDA graph.
  bool cycles_replayed() const;

 private:
  struct Level {
    PoissonLevel geometry;
    std::unique_ptr<GhostFiller> ghosts;
    Field x, b, r;  // solution/correction, right-hand side, residual (Jacobi/Chebyshev); empty on top
    Field d;        // the last Chebyshev step
    Field twin;     // red-black Gauss-Seidel: where a fused sweep writes, every other sweep
    bool passes_read_no_ghosts = false;  // red-black colour passes only, reading no ghost: no exchange between them
    Int3 factor{1, 1, 1};                // coarsening to the next level
    std::vector<ChebyshevSweep> pre_sweeps, post_sweeps;
  };
  // `from_zero`: x is zero (the first visit to a level in a cycle); only a gathered level makes use of it.
  void visit(int l, Field x, Field b, config::CycleType type, bool restricted = false, bool from_zero = true);
  // True when every level's exchanges built so far only enqueue stream work (no host wait: one rank, or peer links).
  bool exchanges_enqueue_only() const;
  // Pre- or post-smooths level l's iterate, held in `from` (x or the level's twin); returns the field that holds the
  // result, x where `end_in_x`.
  Field smooth(int l, Field x, Field from, Field b, bool after_correction, bool end_in_x);
  void fused_sweep(Level& level, Field out, Field in, Field b, bool last);

  std::vector<Level> levels_;
  std::unique_ptr<DenseCoarseSolver> dense_bottom_;
  std::unique_ptr<ConjugateGradient> bottom_;
  std::unique_ptr<GatheredLevels> gathered_;
  std::unique_ptr<device::LaunchGraph> graph_;
  CheckPartials check_partials_;  // restrict_top's partial sums, allocated on its first call (check_partial_count)
  config::PoissonConfig config_;
};

}  // namespace eddy::solver
