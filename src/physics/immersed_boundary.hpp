#pragma once
// Immersed solid bodies at rest by direct forcing with linear interpolation along the surface normal (Fadlun,
// Verzicco, Orlandi and Mohd-Yusof 2000; Balaras 2004), applied to the predicted velocity of every stage before the
// projection:
//   solid faces (centre inside a body)  u = 0
//   forcing faces (fluid, with a face neighbour inside a body)  u = u(x + delta n) * d / (d + delta): the velocity
//       interpolated linearly between the surface (u = 0 at the distance d along the normal n) and an image point a
//       distance delta further out, where u is interpolated (bi/trilinearly) from the faces around it; delta is one
//       cell diagonal, so that those faces are all fluid. Where they are not (bodies closer than a cell diagonal) or
//       lie outside the block's ghosts, the interpolation runs along the grid axis whose crossing is nearest,
//       u = u_outer * d / (d + 1), d in cells. Both keep no-slip second-order accurate at the surface; the normal
//       form also varies smoothly with the body's position on the grid, which the lift of a body needs.
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
  int outer[3];   ///< view index of the lowest face of the interpolation stencil (unused for solid faces)
  Real t[3];      ///< position of the image point in the stencil's cell along each axis (0: the outer face alone)
  int component;  ///< 0 u, 1 v, 2 w
  int body;       ///< the body the face belongs to
  Real weight;    ///< u = weight * (u interpolated at the image point); 0 for solid faces
};

/// Throws eddy::Error naming the body where a deck body covers the centre of every cell (the shapes are convex, so
/// the corner cells of the domain decide): no fluid is left.
void require_fluid_around_bodies(const config::Deck& deck);

/// Samples per axis and cell of solid_fractions.
inline constexpr int solid_samples = 4;

/// The fraction of each owned cell of this rank's block inside a deck body (x fastest; 0 fluid, 1 solid), from
/// solid_samples points per axis; computed on the host.
std::vector<Real> solid_fractions(const config::Deck& deck, const grid::Decomposition& decomp);

/// For each owned cell of this rank's block (x fastest): 1 where every face of the cell is set by the forcing (solid
/// faces and forcing faces), so that its pressure is the forcing's and not the flow's (inside a body and in the layer
/// of cells along its surface that the flow cannot reach), else 0; computed on the host.
std::vector<char> forced_cells(const config::Deck& deck, const grid::Decomposition& decomp);

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
