#pragma once
// Physical boundary conditions of the transported scalars on a rank's ghost cells (the periodic wrap and neighbour
// ranks belong to the halo exchange, which must run first). With the wall half a cell from the ghost centre:
//   value, inflow       ghost = 2 value - interior        (the wall carries `value`)
//   flux                ghost = interior + h q / kappa    (q = kappa dc/dn enters the domain, n the outward normal)
//   adiabatic, outflow  ghost = interior                  (zero normal gradient)
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <vector>

namespace eddy::physics {

/// One physical face of one scalar, copied into kernels.
struct ScalarFaceRule {
  int axis = 0;
  int side = 0;
  Real interior_weight = 1;  ///< ghost = interior_weight * interior + shift
  Real shift = 0;
};

class ScalarBoundary {
 public:
  /// Collects the faces of `scalar` on this rank's physical boundary.
  ScalarBoundary(const config::ScalarConfig& scalar, const grid::Decomposition& decomp);
  /// Fills the ghost cells of `field` on the physical faces.
  void apply(const Field& field, const fields::LocalShape& shape) const;

 private:
  std::vector<ScalarFaceRule> rules_;
};

}  // namespace eddy::physics
