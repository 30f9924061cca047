#pragma once
// Running time averages of the flow (deck section `statistics`), kept on the device. From statistics.start_time on,
// every statistics.interval_steps steps, each cell adds w q for every quantity q: the cell-centred u, v, w (3D), p,
// their products uu, vv, ww, uv, uw, vw, pp and, per scalar S, S, u_S, v_S, w_S, S_S; the weight w of a sample is the
// simulated time since the previous one (or since start_time), so the sums divided by their total weight are time
// averages over [start_time, t] whatever the step size. Means and covariances (<a'b'> = <ab> - <a><b>) follow at
// output time: per cell, and averaged over statistics.average_over into profiles along the axis left.
#include "config/deck.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "operators/staggered_grid.hpp"

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace eddy::physics {

/// The averaging window so far: what a checkpoint keeps besides the sums.
struct AveragingWindow {
  double start = 0;       ///< the time the averages start from (the first sample's start)
  double end = 0;         ///< the time of the last sample
  double weight = 0;      ///< the summed sample weights (end - start, summed step by step)
  long long samples = 0;  ///< samples taken
};

/// Profiles along one axis: the coordinate of each global cell centre and one column per quantity.
struct StatisticsProfiles {
  int axis = 1;
  std::vector<double> coordinate;
  std::vector<std::string> columns;         ///< mean_u, ..., then the covariances uu, ..., as statistics_columns
  std::vector<std::vector<double>> values;  ///< [column][cell]
};

class FlowStatistics {
 public:
  /// The deck's statistics on this rank's block, with the scalars in deck order (disabled when the deck has none).
  FlowStatistics(const config::Deck& deck, const grid::Decomposition& decomp, const operators::StaggeredGrid& grid,
                 std::vector<std::string> scalar_names);
  /// True when the deck asks for statistics.
  bool enabled() const { return enabled_; }
  /// After step `step` of length dt ended at time t: adds the sample when one is due (`scalars` in deck order); the
  /// first sample stands for its own step (from start_time at the earliest).
  void after_step(const fields::FlowState& state, const std::vector<Field>& scalars, double t, double dt,
                  long long step);
  /// The window so far (samples 0: none taken yet).
  const AveragingWindow& window() const { return window_; }

  /// The sums, named statistics_<quantity>, which a checkpoint holds.
  std::vector<fields::NamedField> sum_fields() const;
  /// The window as named numbers, which a checkpoint holds.
  std::vector<std::pair<std::string, double>> window_numbers() const;
  /// The names window_numbers() uses.
  static std::vector<std::string> window_number_names();
  /// Continues from a checkpoint's window (its sums were read into sum_fields() already).
  void restore(const std::vector<std::pair<std::string, double>>& numbers);

  /// The per-cell means and covariances of the window as output columns (statistics_columns order), each an owned
  /// block (nx, ny, nz) on the device.
  std::vector<std::pair<std::string, Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>>> cell_means() const;
  /// The window averaged over statistics.average_over (collective over `comm`; every rank gets them).
  StatisticsProfiles profiles(MPI_Comm comm) const;
  /// True when statistics.average_over leaves one axis for profiles.
  bool has_profiles() const { return profile_axis_ >= 0; }

 private:
  bool enabled_ = false;
  config::StatisticsConfig config_;
  grid::Decomposition decomp_;
  operators::StaggeredGrid grid_;
  std::vector<std::string> scalar_names_;
  std::vector<std::string> quantities_;  // the sums, in sums_ order
  std::vector<Field> sums_;
  AveragingWindow window_;
  int profile_axis_ = -1;
};

/// The output columns of the means and covariances for `dims` dimensions and the scalars: mean_u, mean_v, (mean_w),
/// mean_p, uu, vv, (ww), uv, (uw, vw), pp, then per scalar S: mean_S, u_S, v_S, (w_S), S_S.
std::vector<std::string> statistics_columns(int dims, const std::vector<std::string>& scalar_names);

}  // namespace eddy::physics
