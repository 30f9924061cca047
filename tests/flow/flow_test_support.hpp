#pragma once
// Helpers shared by the flow tests: decks built in C++, fields gathered to every rank, exact solutions.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "time/simulation.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace eddy::testing {

/// A deck on a periodic box of `n` cells per axis and side 2 pi (unit depth in 2D), with a tight pressure solve.
inline config::Deck periodic_box_deck(int dimensions, int n) {
  config::Deck deck;
  deck.name = "test";
  deck.domain.dimensions = dimensions;
  deck.domain.cells = {n, n, dimensions == 3 ? n : 1};
  const double two_pi = 2 * M_PI;
  deck.domain.length = {two_pi, two_pi, dimensions == 3 ? two_pi : 1.0};
  for (auto& face : deck.boundary.faces) face.type = config::BoundaryType::periodic;
  deck.pressure.solver = config::PoissonSolverType::cg;
  deck.pressure.rtol = 1e-12;
  deck.pressure.atol = 1e-14;
  deck.pressure.max_iterations = 100;
  deck.time.dt = 1.0;  // the CFL and viscous limits choose the step
  deck.output.log_interval = 0;
  return deck;
}

/// Starts `deck` from a random field of size `amplitude` carried by the stream `velocity`, and steps it by a fixed `dt`
/// of `scheme`: a flow whose time error advection dominates.
inline void random_stream_by_fixed_steps(config::Deck& deck, const std::array<double, 3>& velocity, double amplitude,
                                         config::TimeScheme scheme, double dt) {
  deck.initial.type = config::InitialType::random;
  deck.initial.velocity = velocity;
  deck.initial.amplitude = amplitude;
  deck.time.scheme = scheme;
  deck.time.adaptive = false;
  deck.time.dt = dt;
}

/// A box of `cells` with walls in x (and z in 3D) and periodic in y (and z in 2D): the walls give it boundary faces
/// that the momentum equation does not advance.
inline grid::GlobalGrid walled_box(int dimensions, Int3 cells) {
  grid::GlobalGrid g;
  g.dim = dimensions;
  g.cells = cells;
  g.length = {1.0, 1.3, dimensions == 3 ? Real(0.8) : Real(1.0)};
  g.periodic = {false, true, dimensions == 2};
  return g;
}

/// A field of the whole domain on the host, x fastest; component 0..2 of the velocity or 3 for the pressure.
struct GlobalField {
  Int3 extent{1, 1, 1};
  std::vector<double> values;
  double operator()(int i, int j, int k) const {
    return values[i + static_cast<std::size_t>(extent[0]) * (j + static_cast<std::size_t>(extent[1]) * k)];
  }
};

/// Gathers the owned values (faces or cells) of `field` from every rank into one global array on every rank.
inline GlobalField gather(const Field& field, const grid::Decomposition& decomp, int ghost) {
  GlobalField global;
  global.extent = decomp.global.cells;
  global.values.assign(static_cast<std::size_t>(global.extent[0]) * global.extent[1] * global.extent[2], 0.0);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  for (int k = 0; k < decomp.local_cells[2]; ++k) {
    for (int j = 0; j < decomp.local_cells[1]; ++j) {
      for (int i = 0; i < decomp.local_cells[0]; ++i) {
        const std::size_t gi = decomp.offset[0] + i, gj = decomp.offset[1] + j, gk = decomp.offset[2] + k;
        global.values[gi + global.extent[0] * (gj + global.extent[1] * gk)] = host(i + ghost, j + ghost, k + ghost);
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, global.values.data(), static_cast<int>(global.values.size()), MPI_DOUBLE, MPI_SUM,
                decomp.comm);
  return global;
}

/// The velocity component `c` (0, 1, 2) or the pressure (3) of a simulation, gathered.
inline GlobalField gather(const time::Simulation& sim, int c) {
  const auto& s = sim.state();
  const Field f = c == 0 ? s.u : (c == 1 ? s.v : (c == 2 ? s.w : s.p));
  return gather(f, sim.decomposition(), s.shape.ghost);
}

/// Runs `deck` to its end (time.end_time or time.max_steps) on every rank, without a run folder, and returns what
/// `read` takes from the finished simulation.
template <class Read>
auto run_to_end(const config::Deck& deck, Read read) {
  parallel::Context context;
  time::Simulation sim(deck, context, {"", true});
  sim.advance(deck.time.max_steps);
  return read(sim);
}

/// Largest |a - b| over two gathered fields.
inline double max_difference(const GlobalField& a, const GlobalField& b) {
  double result = 0;
  for (std::size_t n = 0; n < a.values.size(); ++n) result = std::max(result, std::abs(a.values[n] - b.values[n]));
  return result;
}

/// Largest |a - b| over every view point (ghosts included) of two fields of one shape on this rank.
inline double max_view_difference(const Field& a, const Field& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  double result = 0;
  for (std::size_t n = 0; n < ha.span(); ++n) result = std::max<double>(result, std::abs(ha.data()[n] - hb.data()[n]));
  return result;
}

/// Observed order of convergence between two errors at a refinement ratio.
/// The largest difference of two fields of one shape over every view point but the rows' padding (which no kernel
/// writes).
inline double max_difference_off_padding(const Field& a, const Field& b, int row_padding) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  double result = 0;
  for (int k = 0; k < static_cast<int>(ha.extent(2)); ++k)
    for (int j = 0; j < static_cast<int>(ha.extent(1)); ++j)
      for (int i = 0; i + row_padding < static_cast<int>(ha.extent(0)); ++i)
        result = std::max<double>(result, std::abs(ha(i, j, k) - hb(i, j, k)));
  return result;
}

/// Fills every point of `f`'s view, ghosts and padding included, with a distinct smooth value that depends on `seed`.
inline void fill_view_points(const Field& f, double seed) {
  auto host = Kokkos::create_mirror_view(f);
  for (std::size_t n = 0; n < host.span(); ++n) host.data()[n] = std::sin(0.37 * n + seed) + 0.3 * std::cos(0.011 * n);
  Kokkos::deep_copy(f, host);
}

inline double observed_order(double coarse_error, double fine_error, double ratio = 2) {
  return std::log(coarse_error / fine_error) / std::log(ratio);
}

}  // namespace eddy::testing
