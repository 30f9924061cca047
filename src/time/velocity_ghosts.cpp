#include "time/velocity_ghosts.hpp"

namespace eddy::time {
namespace {

std::vector<Field> velocity_fields(const fields::FlowState& state, int dimensions) {
  if (dimensions == 3) return {state.u, state.v, state.w};
  return {state.u, state.v};
}

// The velocity's row ends that the stages and the correction write where the halo exchange allows it: not where the
// correction moves a y or z boundary face (an outflow), whose x ghosts the exchange leaves alone.
parallel::RowEndImages velocity_row_ends_of(const parallel::HaloExchange& halo,
                                            const operators::CorrectedBoundaries& corrected) {
  for (int a : {1, 2}) {
    if (corrected[a][0] || corrected[a][1]) return {};
  }
  return halo.row_end_images();
}

}  // namespace

VelocityGhosts::VelocityGhosts(parallel::Context& context, const grid::Decomposition& decomp,
                               const fields::FlowState& state, const config::BoundaryConfig& boundary, int dimensions,
                               parallel::Transport transport, bool overlap, bool faces_after_stage, PhaseTimers& timers,
                               const config::Constants& constants)
    : dimensions_(dimensions),
      halo_(context, decomp, state.shape, velocity_fields(state, dimensions), 1, transport),
      overlap_ranges_(grid::overlap_ranges(decomp, state.shape, 1)),
      overlap_(overlap && halo_.bytes_per_exchange() > 0),
      boundary_(boundary, decomp, state.shape, constants),
      row_ends_(velocity_row_ends_of(halo_, boundary_.corrected_boundaries())),
      timers_(&timers),
      bound_u_(state.u.data()) {
  if (overlap_) halo_.pack_alongside();
  if (halo_.bytes_per_exchange() > 0 && faces_after_stage) {
    const std::vector<Field> velocity = velocity_fields(state, dimensions);
    for (int a = 0; a < static_cast<int>(velocity.size()); ++a) {
      stage_faces_.push_back(std::make_unique<parallel::HaloExchange>(
          context, decomp, state.shape, std::vector<Field>{velocity[a]}, 1, transport, a));
      if (overlap_) stage_faces_.back()->pack_alongside();
    }
  }
}

void VelocityGhosts::follow(const fields::FlowState& state) {
  if (state.u.data() == bound_u_) return;
  const std::vector<Field> velocity = velocity_fields(state, dimensions_);
  halo_.rebind(velocity);
  for (std::size_t a = 0; a < stage_faces_.size(); ++a) stage_faces_[a]->rebind({velocity[a]});
  bound_u_ = state.u.data();
}

void VelocityGhosts::apply_boundaries(const fields::FlowState& state, Real stage_dt, Real start_weight,
                                      const fields::FaceVector& start) {
  auto scope = timers_->time(Phase::boundary);
  if (start_weight == 0) return boundary_.apply(state, stage_dt);
  boundary_.apply(state, stage_dt, start_weight, start);
}

void VelocityGhosts::fill(const fields::FlowState& state, bool normal_faces, Real stage_dt, bool row_ends_written,
                          const std::function<void()>& alongside) {
  follow(state);
  {
    auto scope = timers_->time(Phase::halo);
    halo_.begin(row_ends_written);
  }
  if (alongside) alongside();
  {
    auto scope = timers_->time(Phase::halo);
    halo_.finish();
  }
  if (normal_faces) return apply_boundaries(state, stage_dt, 0, {});
  auto scope = timers_->time(Phase::boundary);
  boundary_.apply_tangential(state);
}

void VelocityGhosts::fill_after_stage(const fields::FlowState& state, Real stage_dt, Real start_weight,
                                      const fields::FaceVector& start, bool row_ends_written,
                                      const std::function<void(const grid::IndexBox&)>& build_rhs) {
  follow(state);
  // The stage faces leave each component's ghosts across the other axes as they were. Where x wraps onto the block, the
  // correction writes the x images of the faces it moves from those ghosts: a stage that did not write its row ends
  // (the stored tendency) has every ghost exchanged instead.
  const bool whole = stage_faces_.empty() || (!row_ends_written && !row_ends_.empty());
  const auto begin = [&] {
    if (whole) return halo_.begin(row_ends_written);
    for (auto& faces : stage_faces_) faces->begin(row_ends_written);
  };
  const auto finish = [&] {
    if (whole) return halo_.finish();
    for (auto& faces : stage_faces_) faces->finish();
  };
  if (build_rhs) {
    {
      auto scope = timers_->time(Phase::halo);
      begin();
    }
    {
      auto scope = timers_->time(Phase::projection);
      build_rhs(overlap_ranges_.interior);
    }
    auto scope = timers_->time(Phase::halo);
    finish();
  } else {
    auto scope = timers_->time(Phase::halo);
    begin();
    finish();
  }
  apply_boundaries(state, stage_dt, start_weight, start);
  if (!build_rhs) return;
  auto scope = timers_->time(Phase::projection);
  for (const auto& box : overlap_ranges_.shell) build_rhs(box);
}

}  // namespace eddy::time
