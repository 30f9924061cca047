#pragma once
// Immersed solid bodies at rest by direct forcing with linear interpolation (Fadlun, Verzicco, Orlandi and
// Mohd-Yusof 2000), applied to the predicted velocity of every stage before the projection:
//   solid faces (centre inside a body)  u = 0
//   forcing faces (fluid, with a face neighbour inside a body)  u = u_outer * d / (d + 1): the velocity interpolated
//       linearly between the surface (u = 0, at the fraction d of a cell towards the solid neighbour, from the signed
//       distances of the two faces) and the next fluid face on the opposite side, along the axis whose crossing is
//       nearest. This keeps the no-slip condition second-order accurate at the surface, where setting the first solid
//       face (or a volume penalisation) is first order.
// Body force: the forcing changes u* by du, which is the momentum the body exchanges with the fluid; summed over the
// stages, F_body = -rho sum_faces du dV / dt is the hydrodynamic force (pressure + viscous) on each body, the usual
// direct-forcing estimate. The time loop projects incrementally when there are bodies (u* holds -alpha dt grad p of
// the last stage), so the pressure enters du at the stage's own weight, not through the velocity the previous
// projection left in the solid, and the estimate does not depend on the size of the previous step.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/reducer.hpp"

#include <array>
#include <vector>

namespace eddy::physics {

/// One velocity face that the forcing sets (plain data, copied to the device).
struct ForcingPoint {
  int index[3];   ///< view index of the face
  int outer[3];   ///< view index of the fluid face the value is interpolated from (unused for solid faces)
  int component;  ///< 0 u, 1 v, 2 w
  int body;       ///< the body the face belongs to
  Real weight;    ///< u = weight * u(outer); 0 for solid faces
};

/// Throws eddy::Error naming the body where a deck body covers the centre of every cell (the shapes are convex, so
/// the corner cells of the domain decide): no fluid is left.
void require_fluid_around_bodies(const config::Deck& deck);

/// Samples per axis and cell of solid_fractions.
inline constexpr int solid_samples = 4;

/// The fraction of each owned cell of this rank's block inside a deck body (x fastest; 0 fluid, 1 solid), from
/// solid_samples points per axis; computed on the host.
std::vector<Real> solid_fractions(const config::Deck& deck, const grid::Decomposition& decomp);

class ImmersedBoundary {
 public:
  /// Classifies this rank's momentum faces against the deck bodies.
  ImmersedBoundary(const config::Deck& deck, const grid::Decomposition& decomp, const operators::StaggeredGrid& grid);

  /// Number of bodies.
  int count() const { return static_cast<int>(names_.size()); }

  /// Sets the forced faces of the predicted velocity (ghosts valid) and adds -du dV / step_dt to the step's force.
  void apply(const fields::FlowState& state, Real step_dt);
  /// The force on each body summed over the stages of the step (collective), then resets the sum.
  std::vector<std::array<double, 3>> take_step_forces(const parallel::Reducer& reducer, double density);

 private:
  std::vector<std::string> names_;
  Kokkos::View<ForcingPoint*, MemSpace> points_;
  Kokkos::View<Real*, MemSpace> targets_;
  Buffer forces_;  // [body * 3 + component]
  Real cell_volume_ = 1;
};

}  // namespace eddy::physics
