#pragma once
// Physical boundary conditions of the velocity on a rank's ghost layers and boundary faces (periodic wrap and
// neighbour ranks belong to the halo exchange, which must run first). Per face of the domain:
//   no_slip      normal face velocity 0; tangential ghost = -interior (wall value 0)
//   moving_wall  normal face velocity 0; tangential ghost = 2 U_wall - interior
//   free_slip    normal face velocity 0; tangential ghost = interior
//   inflow       normal face velocity = U times the profile (uniform, or 6 s (1 - s) per bounded tangential axis,
//                so its mean is U); tangential ghost = -interior
//   outflow      zero_gradient: normal boundary face = the next interior face; convective: du/dt + U_c du/dn = 0
//                with U_c the mean outflow velocity through the face; tangential ghost = interior in both cases
// An inflow or moving wall given by expressions (config/expression.hpp) takes its normal face velocity and each
// tangential wall value g (ghost = 2 g - interior) from them, evaluated on the host at the face's points: once, or at
// each set_time where they read t.
// The normal boundary face of the low side is view index g - 1, of the high side the last owned face g + n - 1.
#include "config/deck.hpp"
#include "config/expression.hpp"
#include "fields/face_vector.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "operators/gradient.hpp"
#include "parallel/reducer.hpp"

#include <array>
#include <vector>

namespace eddy::boundary {

/// One physical face of the domain as the kernels see it (plain data, copied into kernels).
struct FaceRule {
  int axis = 0;
  int side = 0;
  config::BoundaryType type = config::BoundaryType::no_slip;
  config::OutflowType outflow = config::OutflowType::zero_gradient;
  bool parabolic = false;
  Real wall_velocity[3] = {0, 0, 0};
  Real convective_velocity = 0;  ///< U_c of a convective outflow, refreshed by update_convective_velocity
  bool from_values = false;      ///< the velocity comes from the face's evaluated expressions
};

/// The velocity of a face given by expressions at its points: component, then the view indices of the face's two
/// tangential axes (the next and the one after), ghosts included.
using FaceValues = Kokkos::View<Real***, Kokkos::LayoutRight, MemSpace>;

class VelocityBoundary {
 public:
  /// Collects the faces of the deck that lie on this rank's physical boundary.
  VelocityBoundary(const config::BoundaryConfig& config, const grid::Decomposition& decomp,
                   const fields::LocalShape& shape, const config::Constants& constants = {});

  /// Sets boundary faces and tangential ghosts of u, v (and w in 3D); `stage_dt` advances convective outflow faces.
  void apply(const fields::FlowState& state, Real stage_dt) const;
  /// The same inside a stage that blends in the step's start: a convective outflow face b becomes
  /// (1 - start_weight) b + stage_dt db/dt + start_weight b_0, with b_0 read from `start`.
  void apply(const fields::FlowState& state, Real stage_dt, Real start_weight, const fields::FaceVector& start) const;

  /// Sets only the tangential ghosts, keeping the normal faces (after the projection corrected the outflow faces).
  void apply_tangential(const fields::FlowState& state) const;

  /// The time at which faces given by expressions that read t are evaluated from now on (the end of the stage whose
  /// ghosts are filled next); faces that do not read t are evaluated once.
  void set_time(double t);

  /// Recomputes U_c of convective outflow faces from the current field (collective: every rank must call it).
  void update_convective_velocity(const fields::FlowState& state, const parallel::Reducer& reducer);

  /// Boundary faces whose normal velocity the projection corrects: the outflow faces, where pressure is Dirichlet.
  operators::CorrectedBoundaries corrected_boundaries() const { return corrected_; }

 private:
  void fill(const fields::FlowState& state, bool set_normal, Real stage_dt, Real start_weight,
            const fields::FaceVector& start) const;

  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  // The expressions of a face and their values at its points.
  // Move-only, so that a vector of them never instantiates the (missing) copy of an expression.
  struct FaceExpressions {
    FaceExpressions() = default;
    FaceExpressions(const FaceExpressions&) = delete;
    FaceExpressions(FaceExpressions&&) = default;
    FaceExpressions& operator=(FaceExpressions&&) = default;
    std::vector<config::Expression> components;  // empty: the face's numbers
    config::EvaluationTime when;
    FaceValues values;
  };
  void evaluate(const FaceRule& rule, FaceExpressions& face, double t) const;

  std::vector<FaceRule> rules_;               // faces on this rank's physical boundary
  std::vector<FaceExpressions> expressions_;  // per rule
  Real3 origin_{0, 0, 0};
  std::vector<int> convective_faces_;  // global face indices (2 * axis + side) with convective outflow
  operators::CorrectedBoundaries corrected_{};
};

}  // namespace eddy::boundary
