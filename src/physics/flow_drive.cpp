#include "physics/flow_drive.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::physics {
namespace {

Field component(const fields::FaceVector& velocity, int axis) {
  return axis == 0 ? velocity.u : axis == 1 ? velocity.v : velocity.w;
}

// The mean of component `c` over the owned faces of `shape` (collective): along a periodic axis every owned cell owns
// one face of its component, so the faces' mean is the volume mean.
double domain_mean(const Field& c, const fields::LocalShape& shape, long long global_cells,
                   const parallel::Reducer& reducer) {
  Real local = 0;
  Kokkos::parallel_reduce(
      "physics::bulk_velocity", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& sum) { sum += c(i, j, k); }, local);
  return reducer.sum(local) / static_cast<double>(global_cells);
}

// domain_mean on a stretched grid: each face weighted by the volume around it.
double stretched_domain_mean(const Field& c, int axis, const operators::StaggeredGrid& grid,
                             const parallel::Reducer& reducer) {
  const grid::GridMetric m = grid.metric;
  Real sum = 0, volume = 0;
  Kokkos::parallel_reduce(
      "physics::bulk_velocity_stretched", grid::owned_cells(grid.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& s, Real& v) {
        const Real w = (axis == 0 ? 1 / m.x.inv_gap(i) : m.x.width(i)) *
                       (axis == 1 ? 1 / m.y.inv_gap(j) : m.y.width(j)) *
                       (axis == 2 ? 1 / m.z.inv_gap(k) : m.z.width(k));
        s += w * c(i, j, k);
        v += w;
      },
      sum, volume);
  const auto total = reducer.allreduce(std::array<Real, 2>{sum, volume}, parallel::ReduceOp::sum);
  return total[0] / total[1];
}

}  // namespace

FlowDrive::FlowDrive(const config::DriveConfig& drive, const operators::StaggeredGrid& grid, long long global_cells)
    : drive_(drive), grid_(grid), global_cells_(global_cells) {}

void FlowDrive::add_source(const fields::FaceVector& rhs) const {
  if (!adds_source()) return;
  const Field r = component(rhs, drive_.axis);
  const Real acceleration = drive_.value;
  Kokkos::parallel_for(
      "physics::drive_pressure_gradient", grid::owned_cells(grid_.shape),
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) += acceleration; });
}

double FlowDrive::bulk_velocity(const fields::FaceVector& velocity, const parallel::Reducer& reducer) const {
  if (grid_.stretched) return stretched_domain_mean(component(velocity, drive_.axis), drive_.axis, grid_, reducer);
  return domain_mean(component(velocity, drive_.axis), grid_.shape, global_cells_, reducer);
}

void FlowDrive::hold_flow_rate(const fields::FaceVector& velocity, const parallel::Reducer& reducer) {
  if (drive_.type != config::DriveType::flow_rate) return;
  const Real shift = drive_.value - bulk_velocity(velocity, reducer);
  step_shift_ += shift;
  const Field c = component(velocity, drive_.axis);
  const auto& s = grid_.shape;
  Kokkos::parallel_for(
      "physics::hold_flow_rate", grid::box({0, 0, 0}, {s.extent(0), s.extent(1), s.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k) { c(i, j, k) += shift; });
}

void FlowDrive::finish_step(const fields::FaceVector& velocity, double dt, const parallel::Reducer& reducer,
                            std::vector<NamedValue>& extra) {
  if (drive_.type == config::DriveType::flow_rate) {
    extra.push_back({"drive_pressure_gradient", step_shift_ / dt});
    step_shift_ = 0;
  } else if (drive_.type == config::DriveType::pressure_gradient) {
    extra.push_back({"bulk_velocity", bulk_velocity(velocity, reducer)});
  }
}

}  // namespace eddy::physics
