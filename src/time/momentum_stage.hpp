#pragma once
// The velocity's part of a Runge-Kutta stage, u* = u_k + dt (gamma R_k + zeta R_{k-1}) + beta (u_0 - u_k) with
// R = -div(u u) + nu Laplacian(u) + sources, on the faces the momentum equation advances (u_0: the velocity the step
// started from).
//
// Without momentum sources one kernel (operators/velocity_stage.hpp) evaluates R_k and writes u* into a second
// velocity buffer (the stencil still reads u_k, so u* cannot overwrite it), keeping R_k in place of R_{k-1} where the
// next stage needs it (schemes whose stages never read R_{k-1} have no buffer for it); finish() then swaps the
// buffers. Every point that is not advanced (ghosts, physical boundary faces) is copied, so u* differs from u_k
// exactly where an in-place update would change it. Per stage this moves fewer bytes per cell than a stored tendency
// plus a separate update, which writes R_k and reads it back. With sources (buoyancy) the tendency is stored, the
// sources are added to it, and the update runs in place (operators/velocity_stage_update.hpp).
//
// Where the velocity's halo exchange only copies the rank's own cells and x is periodic, the fused stages write the x
// ghosts of u* themselves (parallel/row_end_images.hpp).
//
// The fused stages also keep the velocity a step started from without copying it: after the first stage the buffer
// that held it is handed over (hand_over_start_velocity) and a third buffer, the one handed over at the step before,
// takes its place for the next stages' u*.
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "operators/velocity_stage.hpp"

#include <functional>

namespace eddy::time {

class MomentumStage {
 public:
  /// Buffers for fields of `shape`; `separate_sources` when sources are added to the stored tendency;
  /// `reads_tendency` when a stage of the scheme reads R_{k-1}; the fused stages write the `row_ends` of u*.
  MomentumStage(const fields::LocalShape& shape, bool separate_sources, bool reads_tendency = true,
                const parallel::RowEndImages& row_ends = {});

  /// Computes u* (or, with separate sources, R_k plus what `add_sources` adds) from the state's velocity, whose ghosts
  /// must be valid; `start` holds u_0 where the start weight is not 0. The state is unchanged until finish().
  void compute(const fields::FlowState& state, const fields::FaceVector& start, const operators::StaggeredGrid& grid,
               config::AdvectionScheme scheme, Real viscosity, const operators::StageWeights& weights,
               const std::function<void(const fields::FaceVector&)>& add_sources);
  /// Makes u* the state's velocity; true when the state's velocity views changed (halo exchanges built on them must
  /// be rebound).
  bool finish(fields::FlowState& state, const operators::StaggeredGrid& grid);
  /// After a fused stage's finish(): swaps the buffers of the velocity that stage started from into `keep` (u and v,
  /// and w in 3D), and takes `keep`'s for the next u*, so that `keep` holds that velocity without a copy.
  void hand_over_start_velocity(fields::FlowState& keep, const operators::StaggeredGrid& grid);
  /// After a fused stage's finish() (and hand_over_start_velocity() after the first): velocity buffers that no stage
  /// reads before the next compute(), for a kernel that writes the velocity out of place; empty with separate sources.
  fields::FaceVector spare_velocity() const { return velocity_next_; }
  /// Makes the spare buffers (written by such a kernel) the state's velocity and the state's the spare ones.
  void adopt_spare_velocity(fields::FlowState& state, const operators::StaggeredGrid& grid);
  /// True when one kernel computes the tendency and the update.
  bool fused() const { return !separate_sources_; }
  /// True when u* leaves compute() with the images of its rows' ends written (HaloExchange::exchange_after_row_ends).
  bool writes_row_ends() const { return fused() && !row_ends_.empty(); }

 private:
  bool separate_sources_;
  parallel::RowEndImages row_ends_;  // u*'s x ghosts that the fused stages fill
  operators::StageWeights weights_;
  fields::FaceVector start_;                    // u_0 of the separate update
  fields::FaceVector velocity_next_;            // u* (fused)
  fields::FaceVector tendency_, tendency_old_;  // R_k, and R_{k-1} for the separate update
};

}  // namespace eddy::time
