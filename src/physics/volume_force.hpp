#pragma once
// physics.body_force: an acceleration of the fluid (force per unit mass) given per axis as an expression of x, y, z,
// t and the deck's constants (config/expression.hpp). Evaluated on the host at the velocity faces, once where no
// component reads t, else at the time of each stage's right-hand side, and added to the momentum right-hand side.
#include "config/deck.hpp"
#include "config/expression.hpp"
#include "fields/face_vector.hpp"
#include "grid/decomposition.hpp"

#include <mpi.h>
#include <vector>

namespace eddy::physics {

class VolumeForce {
 public:
  /// The deck's body force on this rank's faces of `shape` (none where the deck gives none).
  VolumeForce(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
              MPI_Comm comm);
  /// True when the deck gives a body force.
  bool active() const { return !expressions_.empty(); }
  /// rhs += the force at time t on the owned faces (collective where it depends on t: it is evaluated there).
  void add(const fields::FaceVector& rhs, double t);

 private:
  void evaluate(double t);

  grid::Decomposition decomp_;
  fields::LocalShape shape_;
  MPI_Comm comm_;
  std::vector<config::Expression> expressions_;
  config::EvaluationTime when_;
  fields::FaceVector values_;
};

}  // namespace eddy::physics
