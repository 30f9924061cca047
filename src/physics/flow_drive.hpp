#pragma once
// physics.drive: what keeps a flow going along a periodic axis (a channel, a pipe-like duct). With a constant flow
// rate, every stage shifts the predicted velocity component by the uniform amount that brings its domain mean back to
// the bulk velocity; the projection leaves that mean alone (the mean of a periodic pressure's gradient is zero), so
// the bulk velocity holds to round-off, and the shifts over a step divided by dt are the mean pressure gradient that
// drove it. With a constant pressure gradient the acceleration is added to the right-hand side instead and the bulk
// velocity is what the step reports.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/reducer.hpp"

#include <vector>

namespace eddy::physics {

class FlowDrive {
 public:
  /// The deck's drive on this rank's block (inactive where the deck has none).
  FlowDrive(const config::DriveConfig& drive, const operators::StaggeredGrid& grid, long long global_cells);
  /// True when the deck drives the flow.
  bool active() const { return drive_.type != config::DriveType::none; }
  /// True when the drive adds to the momentum right-hand side (a constant pressure gradient).
  bool adds_source() const { return drive_.type == config::DriveType::pressure_gradient; }
  /// rhs += the constant pressure gradient's acceleration on the owned faces of the driven component.
  void add_source(const fields::FaceVector& rhs) const;
  /// Constant flow rate, after a stage's prediction (ghosts refilled afterwards): shifts the driven component of
  /// `velocity` on every point of its view so that its mean over the domain is the bulk velocity (collective).
  void hold_flow_rate(const fields::FaceVector& velocity, const parallel::Reducer& reducer);
  /// Appends the step's drive_pressure_gradient (constant flow rate) or bulk_velocity (constant pressure gradient) to
  /// `extra` (collective), for a step of length `dt`.
  void finish_step(const fields::FaceVector& velocity, double dt, const parallel::Reducer& reducer,
                   std::vector<NamedValue>& extra);

 private:
  /// The mean of the driven component over the domain (collective).
  double bulk_velocity(const fields::FaceVector& velocity, const parallel::Reducer& reducer) const;

  config::DriveConfig drive_;
  operators::StaggeredGrid grid_;
  long long global_cells_;
  double step_shift_ = 0;  // the shifts of the step's stages, summed
};

}  // namespace eddy::physics
