#include "physics/buoyancy.hpp"

#include <cmath>

namespace eddy::physics {

void add_buoyancy(const Field& temperature, const fields::FaceVector& rhs, const operators::StaggeredGrid& grid,
                  const config::PhysicsConfig& physics) {
  double norm = 0;
  for (double g : physics.gravity) norm += g * g;
  norm = std::sqrt(norm);
  const Field rhs_components[3] = {rhs.u, rhs.v, rhs.w};
  const char* labels[3] = {"physics::buoyancy_u", "physics::buoyancy_v", "physics::buoyancy_w"};
  const Field t = temperature;
  const Real reference = physics.reference_temperature;
  for (int axis = 0; axis < grid.components(); ++axis) {
    if (physics.gravity[axis] == 0 || norm == 0) continue;
    const Real factor = -physics.beta_g * physics.gravity[axis] / norm;
    const Field f = rhs_components[axis];
    const int di = axis == 0, dj = axis == 1, dk = axis == 2;
    Kokkos::parallel_for(
        labels[axis], grid.momentum_faces(axis), KOKKOS_LAMBDA(int i, int j, int k) {
          const Real face_temperature = Real(0.5) * (t(i, j, k) + t(i + di, j + dj, k + dk));
          f(i, j, k) += factor * (face_temperature - reference);
        });
  }
}

}  // namespace eddy::physics
