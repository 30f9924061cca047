#pragma once
// Physical boundary conditions of the transported scalars on a rank's ghost cells (the periodic wrap and neighbour
// ranks belong to the halo exchange, which must run first). With the wall half a cell from the ghost centre:
//   value, inflow       ghost = 2 value - interior        (the wall carries `value`)
//   flux                ghost = interior + h q / kappa    (q = kappa dc/dn enters the domain, n the outward normal)
//   adiabatic, outflow  ghost = interior                  (zero normal gradient)
// A value given by an expression (config/expression.hpp) is evaluated on the host at the face's points: once, or at
// each set_time where it reads t.
#include "config/deck.hpp"
#include "config/expression.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <memory>
#include <vector>

namespace eddy::physics {

/// One physical face of one scalar, copied into kernels.
struct ScalarFaceRule {
  int axis = 0;
  int side = 0;
  Real interior_weight = 1;  ///< ghost = interior_weight * interior + shift (+ shift_scale * the point's value)
  Real shift = 0;
  Real shift_scale = 0;  ///< where the value comes from an expression: 2 (value, inflow) or h / kappa (flux)
};

/// The values of a face given by an expression at its points, by the view indices of its two tangential axes (the next
/// and the one after).
using ScalarFaceValues = Kokkos::View<Real**, Kokkos::LayoutRight, MemSpace>;

class ScalarBoundary {
 public:
  /// Collects the faces of `scalar` on this rank's physical boundary (of the blocks of `shape`); expressions may use
  /// `constants`.
  ScalarBoundary(const config::ScalarConfig& scalar, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                 const config::Constants& constants = {});
  /// The time at which values given by expressions that read t are evaluated from now on.
  void set_time(double t);
  /// Fills the ghost cells of `field` on the physical faces.
  void apply(const Field& field, const fields::LocalShape& shape) const;

 private:
  // The expression of a face and its values at the face's points.
  struct FaceExpression {
    std::unique_ptr<config::Expression> expression;  // none: the rule's numbers
    config::EvaluationTime when;
    ScalarFaceValues values;
  };
  void evaluate(const ScalarFaceRule& rule, FaceExpression& face, double t);

  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  std::vector<ScalarFaceRule> rules_;
  std::vector<FaceExpression> expressions_;  // per rule
};

}  // namespace eddy::physics
