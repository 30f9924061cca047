#pragma once
// Every ghost of the velocity, filled one way: the halo exchange from the neighbours, then the physical boundary
// conditions. It owns the choreography that keeps both off the critical path:
//   - after a stage, where messages go to other ranks and nothing forces the velocity before the projection, only
//     each component's faces along its own axis travel (all the divergence reads);
//   - with parallel.overlap, the divergence of the cells that read no late ghost is built while the messages travel
//     (grid/overlap_ranges.hpp), that of the cells around them once the ghosts are in;
//   - work that touches no velocity (the next pressure guess) runs while the corrected velocity's messages travel.
// The Runge-Kutta stages rotate the velocity's buffers (time/momentum_stage.hpp); the exchanges follow the state they
// are handed, so no caller rebinds them.
#include "boundary/velocity_boundary.hpp"
#include "config/deck.hpp"
#include "core/phase_timers.hpp"
#include "fields/face_vector.hpp"
#include "grid/overlap_ranges.hpp"
#include "parallel/halo_exchange.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace eddy::time {

class VelocityGhosts {
 public:
  /// The exchanges and boundary conditions of `state`'s velocity over `transport`; `faces_after_stage` where the
  /// projection follows a stage directly (no body forcing between them), `overlap` as parallel.overlap.
  VelocityGhosts(parallel::Context& context, const grid::Decomposition& decomp, const fields::FlowState& state,
                 const config::BoundaryConfig& boundary, int dimensions, parallel::Transport transport, bool overlap,
                 bool faces_after_stage, PhaseTimers& timers, const config::Constants& constants = {});

  /// Fills every ghost (and, with `normal_faces`, the boundary faces of stage weight `stage_dt`; else only the
  /// tangential ghosts); `row_ends_written`: the kernel that wrote the velocity wrote its rows' ends;
  /// `alongside`: work that touches no velocity, run while the messages travel.
  void fill(const fields::FlowState& state, bool normal_faces, Real stage_dt = 0, bool row_ends_written = false,
            const std::function<void()>& alongside = {});
  /// The ghosts a projection reads after a stage of weight `stage_dt` that blends in `start` with `start_weight`;
  /// with `build_rhs` (called per box of owned cells), the projection's right-hand side is built around the messages.
  void fill_after_stage(const fields::FlowState& state, Real stage_dt, Real start_weight,
                        const fields::FaceVector& start, bool row_ends_written,
                        const std::function<void(const grid::IndexBox&)>& build_rhs = {});

  /// True where the right-hand side can be built around the messages (parallel.overlap, and messages to send).
  bool overlaps() const { return overlap_; }
  /// The x ghosts the velocity's kernels write themselves (parallel/row_end_images.hpp): none where a y or z boundary
  /// face is corrected by the projection (an outflow).
  const parallel::RowEndImages& row_ends() const { return row_ends_; }
  /// The physical boundary conditions.
  boundary::VelocityBoundary& boundary() { return boundary_; }

 private:
  void follow(const fields::FlowState& state);  // rebinds the exchanges to the state's velocity buffers
  void apply_boundaries(const fields::FlowState& state, Real stage_dt, Real start_weight,
                        const fields::FaceVector& start);

  int dimensions_;
  parallel::HaloExchange halo_;
  std::vector<std::unique_ptr<parallel::HaloExchange>> stage_faces_;  // per component, after a stage
  grid::OverlapRanges overlap_ranges_;
  bool overlap_ = false;
  boundary::VelocityBoundary boundary_;
  parallel::RowEndImages row_ends_;
  PhaseTimers* timers_;
  const Real* bound_u_ = nullptr;  // the u buffer the exchanges were built or rebound for
};

}  // namespace eddy::time
