#pragma once
// Point probes (deck section `probes`): the velocity components, the pressure and every scalar at a point, each
// interpolated multilinearly from the 2^d nodes of its own grid (faces of its component, cell centres) around the
// point. Near a body (or where a body covers one of those nodes) the value comes from the fluid along the surface
// normal instead: a velocity component, zero on the surface, linear to an image point one cell diagonal out (within
// that diagonal); the pressure and the scalars (within two diagonals) extrapolated linearly from image points two and
// three diagonals out, clear of the cells along the surface whose pressure the forcing sets. So a probe on a body's
// surface gives its surface pressure, the benchmark's quantity, free of the values the solver leaves in the solid.
//
// The weights are set up once on the host; every step one kernel per field sums weight x value over the nodes this
// rank owns and one reduction adds the ranks' parts, so every rank count gives the same samples.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/reducer.hpp"

#include <string>
#include <vector>

namespace eddy::physics {

/// One node's share of a probe value (plain data, copied to the device).
struct ProbeTerm {
  int value;     ///< the sample it adds to
  int index[3];  ///< view index of the node in its field
  Real weight;
};

/// A line's samples: the arc length s, the point and the probes' quantities, one row per point.
struct LineTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

/// The points of a deck line, evenly spaced from its start to its end, named <line>_<index>.
std::vector<config::ProbeConfig> line_points(const config::LineConfig& line);

class Probes {
 public:
  /// Probes at `points` on this rank's block of the deck's grid; `scalar_names` label the scalar samples.
  Probes(const config::Deck& deck, const std::vector<config::ProbeConfig>& points, const grid::Decomposition& decomp,
         const operators::StaggeredGrid& grid, const std::vector<std::string>& scalar_names);

  /// True when the deck has probes.
  bool any() const { return !names_.empty(); }
  /// The quantities each probe samples, in order: u, v, (w), p, the scalars.
  const std::vector<std::string>& quantities() const { return quantities_; }
  /// Appends every probe's samples of the state and the scalars to `extra`, named <probe>_<u|v|w|p|scalar>, probe
  /// after probe (collective).
  void sample(const fields::FlowState& state, const std::vector<Field>& scalars, const parallel::Reducer& reducer,
              std::vector<NamedValue>& extra) const;

 private:
  std::vector<std::string> names_;  // one per sample
  std::vector<std::string> quantities_;
  std::vector<Kokkos::View<ProbeTerm*, MemSpace>> terms_;  // per field: u, v, w, p, then the scalars
  Buffer values_;
};

}  // namespace eddy::physics
