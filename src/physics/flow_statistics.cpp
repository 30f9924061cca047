#include "physics/flow_statistics.hpp"

#include "core/error.hpp"
#include "grid/index_ranges.hpp"

#include <cmath>

namespace eddy::physics {
namespace {

constexpr int max_scalars = 8;
constexpr int max_base = 4 + max_scalars;

// The sampled quantities: the base values at a cell centre (u, v, (w), p, the scalars) and the products of pairs of
// them, in the order of statistics_columns.
struct Quantities {
  std::vector<std::string> base;              // u, v, (w), p, scalars
  std::vector<std::pair<int, int>> products;  // indices into base
  std::vector<std::string> product_names;
};

Quantities quantities_of(int dims, const std::vector<std::string>& scalars) {
  Quantities q;
  const bool three_d = dims == 3;
  q.base = three_d ? std::vector<std::string>{"u", "v", "w", "p"} : std::vector<std::string>{"u", "v", "p"};
  const int u = 0, v = 1, w = 2, p = three_d ? 3 : 2;
  const auto add = [&](int a, int b, const std::string& name) {
    q.products.emplace_back(a, b);
    q.product_names.push_back(name);
  };
  add(u, u, "uu");
  add(v, v, "vv");
  if (three_d) add(w, w, "ww");
  add(u, v, "uv");
  if (three_d) {
    add(u, w, "uw");
    add(v, w, "vw");
  }
  add(p, p, "pp");
  for (const auto& name : scalars) {
    const int s = static_cast<int>(q.base.size());
    q.base.push_back(name);
    add(u, s, "u_" + name);
    add(v, s, "v_" + name);
    if (three_d) add(w, s, "w_" + name);
    add(s, s, name + "_" + name);
  }
  return q;
}

}  // namespace

std::vector<std::string> statistics_columns(int dims, const std::vector<std::string>& scalar_names) {
  const Quantities q = quantities_of(dims, scalar_names);
  std::vector<std::string> columns;
  const int flow_base = dims == 3 ? 4 : 3;
  for (int b = 0; b < flow_base; ++b) columns.push_back("mean_" + q.base[b]);
  std::size_t product = 0;
  for (; product < q.products.size() && q.products[product].second < flow_base; ++product) {
    columns.push_back(q.product_names[product]);
  }
  for (std::size_t s = flow_base; s < q.base.size(); ++s) {
    columns.push_back("mean_" + q.base[s]);
    for (; product < q.products.size() && q.products[product].second == static_cast<int>(s); ++product) {
      columns.push_back(q.product_names[product]);
    }
  }
  return columns;
}

FlowStatistics::FlowStatistics(const config::Deck& deck, const grid::Decomposition& decomp,
                               const operators::StaggeredGrid& grid, std::vector<std::string> scalar_names)
    : enabled_(deck.statistics.enabled),
      config_(deck.statistics),
      decomp_(decomp),
      grid_(grid),
      scalar_names_(std::move(scalar_names)) {
  if (!enabled_) return;
  require(static_cast<int>(scalar_names_.size()) <= max_scalars, "statistics: at most " + std::to_string(max_scalars) +
                                                                     " scalars are averaged; the deck has " +
                                                                     std::to_string(scalar_names_.size()));
  const int dims = decomp.global.dim;
  const Quantities q = quantities_of(dims, scalar_names_);
  quantities_ = q.base;
  quantities_.insert(quantities_.end(), q.product_names.begin(), q.product_names.end());
  for (const auto& name : quantities_) sums_.push_back(fields::make_field("statistics_" + name, grid.shape));
  int left = -1, averaged = 0;
  for (int a = 0; a < dims; ++a) {
    if (config_.average_over[a])
      ++averaged;
    else
      left = a;
  }
  if (averaged == dims - 1 && averaged > 0) profile_axis_ = left;
}

void FlowStatistics::after_step(const fields::FlowState& state, const std::vector<Field>& scalars, double t, double dt,
                                long long step) {
  if (!enabled_ || t < config_.start_time - 1e-12 * std::max(1.0, std::abs(config_.start_time))) return;
  if (step % config_.interval_steps != 0) return;
  if (window_.samples == 0) window_.start = window_.end = std::max(config_.start_time, t - dt);
  const Real weight = t - window_.end;
  window_.end = t;
  window_.weight += weight;
  ++window_.samples;

  const Quantities q = quantities_of(decomp_.global.dim, scalar_names_);
  const int n_base = static_cast<int>(q.base.size()), n_products = static_cast<int>(q.products.size());
  const int n_flow = grid_.three_d ? 4 : 3;
  Kokkos::Array<Field, max_base + 3 * max_base> sums;  // base sums, then product sums
  for (std::size_t n = 0; n < sums_.size(); ++n) sums[n] = sums_[n];
  Kokkos::Array<Field, max_scalars> scalar_fields;
  for (std::size_t s = 0; s < scalars.size(); ++s) scalar_fields[s] = scalars[s];
  Kokkos::Array<int, 3 * max_base> first, second;
  for (int n = 0; n < n_products; ++n) {
    first[n] = q.products[n].first;
    second[n] = q.products[n].second;
  }
  const Field u = state.u, v = state.v, w = state.w, p = state.p;
  const bool three_d = grid_.three_d;
  Kokkos::parallel_for(
      "physics::statistics_sample", grid::owned_cells(grid_.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        Real base[max_base];
        base[0] = Real(0.5) * (u(i - 1, j, k) + u(i, j, k));
        base[1] = Real(0.5) * (v(i, j - 1, k) + v(i, j, k));
        if (three_d) base[2] = Real(0.5) * (w(i, j, k - 1) + w(i, j, k));
        base[n_flow - 1] = p(i, j, k);
        for (int s = n_flow; s < n_base; ++s) base[s] = scalar_fields[s - n_flow](i, j, k);
        for (int b = 0; b < n_base; ++b) sums[b](i, j, k) += weight * base[b];
        for (int n = 0; n < n_products; ++n) sums[n_base + n](i, j, k) += weight * base[first[n]] * base[second[n]];
      });
}

std::vector<fields::NamedField> FlowStatistics::sum_fields() const {
  std::vector<fields::NamedField> named;
  for (std::size_t n = 0; n < sums_.size(); ++n) named.push_back({"statistics_" + quantities_[n], sums_[n]});
  return named;
}

std::vector<std::string> FlowStatistics::window_number_names() {
  return {"statistics_start", "statistics_end", "statistics_weight", "statistics_samples"};
}

std::vector<std::pair<std::string, double>> FlowStatistics::window_numbers() const {
  const auto names = window_number_names();
  return {{names[0], window_.start},
          {names[1], window_.end},
          {names[2], window_.weight},
          {names[3], static_cast<double>(window_.samples)}};
}

void FlowStatistics::restore(const std::vector<std::pair<std::string, double>>& numbers) {
  for (const auto& [name, value] : numbers) {
    if (name == "statistics_start") window_.start = value;
    if (name == "statistics_end") window_.end = value;
    if (name == "statistics_weight") window_.weight = value;
    if (name == "statistics_samples") window_.samples = static_cast<long long>(value);
  }
}

std::vector<std::pair<std::string, Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>>> FlowStatistics::cell_means()
    const {
  using Block = Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>;
  const Quantities q = quantities_of(decomp_.global.dim, scalar_names_);
  const int n_base = static_cast<int>(q.base.size());
  const auto columns = statistics_columns(decomp_.global.dim, scalar_names_);
  const Real inverse = window_.weight > 0 ? 1 / window_.weight : 0;
  const int g = grid_.shape.ghost;
  const auto& c = grid_.shape.cells;
  std::vector<std::pair<std::string, Block>> out;
  for (const auto& column : columns) {
    Block block(Kokkos::view_alloc(Kokkos::WithoutInitializing, "statistics::" + column), c[0], c[1], c[2]);
    Field sum, a, b;
    for (int n = 0; n < static_cast<int>(quantities_.size()); ++n) {
      if (column == "mean_" + quantities_[n] && n < n_base) sum = sums_[n];
      if (n >= n_base && column == quantities_[n]) {
        sum = sums_[n];
        a = sums_[q.products[n - n_base].first];
        b = sums_[q.products[n - n_base].second];
      }
    }
    const bool covariance = a.is_allocated();
    Kokkos::parallel_for(
        "physics::statistics_means", grid::owned_cells(grid_.shape), KOKKOS_LAMBDA(int i, int j, int k) {
          Real value = sum(i, j, k) * inverse;
          if (covariance) value -= a(i, j, k) * inverse * (b(i, j, k) * inverse);
          block(i - g, j - g, k - g) = value;
        });
    out.emplace_back(column, block);
  }
  return out;
}

StatisticsProfiles FlowStatistics::profiles(MPI_Comm comm) const {
  StatisticsProfiles result;
  const int axis = profile_axis_;
  require(axis >= 0, "statistics: no profile axis");
  result.axis = axis;
  const int n_global = decomp_.global.cells[axis];
  const int n_local = decomp_.local_cells[axis];
  const int offset = decomp_.offset[axis];
  const int n_sums = static_cast<int>(sums_.size());
  const int g = grid_.shape.ghost;
  const auto& c = grid_.shape.cells;
  const int across_a = axis == 0 ? 1 : 0, across_b = axis == 2 ? 1 : 2;  // the two averaged axes
  const int n_a = c[across_a], n_b = c[across_b];
  Kokkos::View<Real**, Kokkos::LayoutLeft, MemSpace> partial("statistics::partial", n_local, n_sums);
  for (int n = 0; n < n_sums; ++n) {
    const Field sum = sums_[n];
    using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
    Kokkos::parallel_for(
        "physics::statistics_profile", Kokkos::TeamPolicy<ExecSpace>(n_local, Kokkos::AUTO),
        KOKKOS_LAMBDA(const Team& team) {
          const int along = team.league_rank();
          Real plane = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n_a * n_b),
              [&](int m, Real& total) {
                int index[3];
                index[axis] = along + g;
                index[across_a] = m % n_a + g;
                index[across_b] = m / n_a + g;
                total += sum(index[0], index[1], index[2]);
              },
              plane);
          Kokkos::single(Kokkos::PerTeam(team), [&] { partial(along, n) = plane; });
        });
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partial);
  std::vector<double> global(static_cast<std::size_t>(n_global) * n_sums, 0.0);
  for (int n = 0; n < n_sums; ++n) {
    for (int m = 0; m < n_local; ++m) global[static_cast<std::size_t>(n) * n_global + offset + m] = host(m, n);
  }
  MPI_Allreduce(MPI_IN_PLACE, global.data(), static_cast<int>(global.size()), MPI_DOUBLE, MPI_SUM, comm);
  double plane_cells = 1;
  for (int a = 0; a < decomp_.global.dim; ++a) {
    if (a != axis) plane_cells *= decomp_.global.cells[a];
  }
  const double scale = window_.weight > 0 ? 1 / (window_.weight * plane_cells) : 0;
  const auto mean = [&](int n, int m) { return global[static_cast<std::size_t>(n) * n_global + m] * scale; };

  const Quantities q = quantities_of(decomp_.global.dim, scalar_names_);
  const int n_base = static_cast<int>(q.base.size());
  for (int m = 0; m < n_global; ++m) result.coordinate.push_back(decomp_.global.centre(axis, m));
  result.columns = statistics_columns(decomp_.global.dim, scalar_names_);
  for (const auto& column : result.columns) {
    std::vector<double> values(n_global);
    for (int n = 0; n < n_sums; ++n) {
      if (n < n_base && column == "mean_" + quantities_[n]) {
        for (int m = 0; m < n_global; ++m) values[m] = mean(n, m);
      } else if (n >= n_base && column == quantities_[n]) {
        const auto [a, b] = q.products[n - n_base];
        for (int m = 0; m < n_global; ++m) values[m] = mean(n, m) - mean(a, m) * mean(b, m);
      }
    }
    result.values.push_back(values);
  }
  return result;
}

}  // namespace eddy::physics
