#pragma once
// Everything the flow solver couples to: transported scalars, Boussinesq buoyancy and immersed bodies. The time
// loop calls it at four points of a stage and once per step; with none of them in the deck every call is a no-op.
//   stage: add_momentum_sources (buoyancy, body force and a driving pressure gradient into the momentum right-hand
//                                side, the buoyancy from the stage-start temperature)
//          hold_flow_rate       (on the predicted velocity, before its ghosts are filled: a constant flow rate)
//          advance_scalars      (before the velocity update, so both use the stage-start velocity)
//          force_bodies         (on the predicted velocity with valid ghosts, before the projection)
//   step:  finish_step          (Nusselt numbers, scalar ranges, body forces and coefficients, probe samples)
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/context.hpp"
#include "parallel/reducer.hpp"
#include "physics/body_coefficients.hpp"
#include "physics/flow_drive.hpp"
#include "physics/immersed_boundary.hpp"
#include "physics/probes.hpp"
#include "physics/scalar_transport.hpp"
#include "physics/volume_force.hpp"

#include <array>
#include <memory>
#include <vector>

namespace eddy::physics {

/// The force on a body in the last step and its coefficients.
struct BodyForce {
  std::string name;
  std::array<double, 3> force{0, 0, 0};        ///< pressure + viscous force on the body (density included)
  std::array<double, 3> coefficient{0, 0, 0};  ///< F / (0.5 rho U^2 A): drag (x), lift (y), side (z)
};

class CoupledPhysics {
 public:
  /// Sets up the scalars and bodies of the deck on this rank's block; the scalars' halo goes by `halo_transport`.
  CoupledPhysics(const config::Deck& deck, parallel::Context& context, const grid::Decomposition& decomp,
                 const operators::StaggeredGrid& grid, parallel::Transport halo_transport);

  /// Initial scalar fields with valid ghosts.
  void initialise();
  /// The scalar fields by name, the state a checkpoint holds besides the flow (read or written in place).
  std::vector<fields::NamedField> scalar_fields() const { return scalars_.named_fields(); }
  /// Refills the scalar ghosts after their owned values were set from a checkpoint.
  void restore_scalar_ghosts() { scalars_.fill_ghosts(); }
  /// True when the deck has immersed bodies (the velocity ghosts must be refilled after force_bodies).
  bool has_bodies() const { return bodies_.count() > 0; }

  /// True when add_momentum_sources adds anything (buoyancy, a body force, a driving pressure gradient).
  bool has_momentum_sources() const { return temperature_ >= 0 || volume_force_.active() || drive_.adds_source(); }
  /// Adds the buoyancy, the body force at time t and a driving pressure gradient to the momentum right-hand side
  /// (no-op without them).
  void add_momentum_sources(const fields::FaceVector& rhs, double t);
  /// Holds the bulk velocity of a constant-flow-rate drive on the predicted velocity (no-op without; collective).
  void hold_flow_rate(const fields::FlowState& state, const parallel::Reducer& reducer) {
    drive_.hold_flow_rate({state.u, state.v, state.w}, reducer);
  }
  /// Advances the scalars by one stage from the stage-start velocity (ScalarTransport::advance_stage's weights), their
  /// sources taken at time t.
  void advance_scalars(const fields::FlowState& state, Real current_weight, Real previous_weight, Real start_weight,
                       const std::vector<Field>& start, double t);
  /// The time of the boundary data given by expressions from now on (the end of the next stage, or the restart's).
  void set_boundary_time(double t) { scalars_.set_boundary_time(t); }
  /// Direct forcing of the bodies on the predicted velocity; `step_dt` is the full step.
  void force_bodies(const fields::FlowState& state, Real step_dt);
  /// Appends the step's diagnostics and probe samples of `state` to `record` (collective) and keeps the lift history.
  void finish_step(const fields::FlowState& state, StepRecord& record, const parallel::Reducer& reducer);
  /// Line n of the deck's `lines` sampled from `state` and the scalars (collective).
  LineTable sample_line(int n, const fields::FlowState& state, const parallel::Reducer& reducer) const;
  /// Prints the Strouhal number of every body whose lift oscillates (rank 0 prints; the others return).
  void print_summary(int rank) const;

  /// The scalars.
  const ScalarTransport& scalars() const { return scalars_; }
  /// The forces of the last step, one per body.
  const std::vector<BodyForce>& body_forces() const { return forces_; }
  /// St of body `b` from its lift history (0 when it does not oscillate).
  double strouhal(int b) const;

 private:
  config::Deck deck_;
  grid::Decomposition decomp_;
  operators::StaggeredGrid grid_;
  VolumeForce volume_force_;
  FlowDrive drive_;
  ScalarTransport scalars_;
  ImmersedBoundary bodies_;
  Probes probes_;
  std::vector<Probes> lines_;  // one per deck line
  int temperature_ = -1;       // scalar index driving buoyancy, or -1
  std::vector<BodyReference> references_;
  std::vector<BodyForce> forces_;
  std::vector<double> times_;
  std::vector<std::vector<double>> lift_;
};

}  // namespace eddy::physics
