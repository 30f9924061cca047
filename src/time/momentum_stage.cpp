#include "time/momentum_stage.hpp"

#include "core/error.hpp"
#include "operators/advection.hpp"
#include "operators/velocity_stage_update.hpp"

#include <utility>

namespace eddy::time {

MomentumStage::MomentumStage(const fields::LocalShape& shape, bool separate_sources, bool reads_tendency,
                             const parallel::RowEndImages& row_ends)
    : separate_sources_(separate_sources), row_ends_(row_ends) {
  if (separate_sources_ || reads_tendency) tendency_ = fields::FaceVector::allocate("rhs_current", shape);
  if (separate_sources_) {
    if (reads_tendency) tendency_old_ = fields::FaceVector::allocate("rhs_previous", shape);
  } else {
    velocity_next_ = fields::FaceVector::allocate("velocity_next", shape);
  }
}

void MomentumStage::compute(const fields::FlowState& state, const fields::FaceVector& start,
                            const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                            const operators::StageWeights& weights,
                            const std::function<void(const fields::FaceVector&)>& add_sources) {
  weights_ = weights;
  start_ = start;
  if (separate_sources_) {
    operators::compute_momentum_tendency(state, tendency_, grid, scheme, viscosity);
    if (add_sources) add_sources(tendency_);
  } else {
    operators::velocity_stage(state, {velocity_next_, tendency_, start, row_ends_}, grid, scheme, viscosity, weights);
  }
}

bool MomentumStage::finish(fields::FlowState& state, const operators::StaggeredGrid& grid) {
  if (separate_sources_) {
    require(weights_.previous == 0 || tendency_old_.u.is_allocated(),
            "MomentumStage: the scheme was built without R_{k-1} but a stage reads it");
    operators::apply_stage_update(state, {tendency_, tendency_old_, start_}, weights_, grid);
    if (tendency_old_.u.is_allocated()) std::swap(tendency_, tendency_old_);
    return false;
  }
  adopt_spare_velocity(state, grid);
  return true;
}

void MomentumStage::adopt_spare_velocity(fields::FlowState& state, const operators::StaggeredGrid& grid) {
  require(!separate_sources_, "MomentumStage: the stored tendency's update keeps no spare velocity");
  std::swap(state.u, velocity_next_.u);
  std::swap(state.v, velocity_next_.v);
  if (grid.three_d) std::swap(state.w, velocity_next_.w);
}

void MomentumStage::hand_over_start_velocity(fields::FlowState& keep, const operators::StaggeredGrid& grid) {
  require(!separate_sources_,
          "MomentumStage: only the fused stages leave the starting velocity in a buffer of its own");
  std::swap(keep.u, velocity_next_.u);
  std::swap(keep.v, velocity_next_.v);
  if (grid.three_d) std::swap(keep.w, velocity_next_.w);
}

}  // namespace eddy::time
