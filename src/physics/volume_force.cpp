#include "physics/volume_force.hpp"

#include "grid/index_ranges.hpp"
#include "physics/field_expression.hpp"

#include <string>

namespace eddy::physics {

VolumeForce::VolumeForce(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                         MPI_Comm comm)
    : decomp_(decomp), shape_(shape), comm_(comm) {
  if (!deck.physics.has_body_force()) return;
  for (int c = 0; c < deck.domain.dimensions; ++c) {
    expressions_.emplace_back(deck.physics.body_force[c], deck.constants);
    when_.unsteady = when_.unsteady || expressions_.back().uses("t");
  }
  values_ = fields::FaceVector::allocate("body_force", shape);
}

void VolumeForce::evaluate(double t) {
  const Field components[3] = {values_.u, values_.v, values_.w};
  for (int c = 0; c < static_cast<int>(expressions_.size()); ++c) {
    fill_from_expression(expressions_[c], "physics.body_force[" + std::to_string(c) + "]", decomp_, components[c], c,
                         shape_.ghost, comm_, t);
  }
  when_.mark(t);
}

void VolumeForce::add(const fields::FaceVector& rhs, double t) {
  if (!active()) return;
  if (when_.stale(t)) evaluate(t);
  const Field fu = values_.u, fv = values_.v, fw = values_.w, ru = rhs.u, rv = rhs.v, rw = rhs.w;
  const bool three_d = expressions_.size() == 3;
  Kokkos::parallel_for(
      "physics::body_force", grid::owned_cells(shape_), KOKKOS_LAMBDA(int i, int j, int k) {
        ru(i, j, k) += fu(i, j, k);
        rv(i, j, k) += fv(i, j, k);
        if (three_d) rw(i, j, k) += fw(i, j, k);
      });
}

}  // namespace eddy::physics
