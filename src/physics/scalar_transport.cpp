#include "physics/scalar_transport.hpp"

#include "core/error.hpp"
#include "operators/stretched_stencils.hpp"
#include "physics/field_expression.hpp"
#include "physics/scalar_initial.hpp"
#include "physics/scalar_stencil.hpp"

#include <string>
#include <utility>

namespace eddy::physics {
namespace {

template <class Flux>
void scalar_rhs(const Field& c, const Field& rhs, const fields::FlowState& state, Real diffusivity,
                const operators::StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const operators::InverseSpacing inv = grid.inv;
  const bool three_d = grid.three_d;
  if (grid.stretched) {
    const grid::GridMetric m = grid.metric;
    Kokkos::parallel_for(
        "physics::scalar_rhs_stretched", grid::owned_cells(grid.shape), KOKKOS_LAMBDA(int i, int j, int k) {
          rhs(i, j, k) = operators::stretched_scalar_tendency<Flux>(c, u, v, w, i, j, k, m, three_d, diffusivity);
        });
    return;
  }
  Kokkos::parallel_for(
      "physics::scalar_rhs", grid::owned_cells(grid.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        rhs(i, j, k) = scalar_advection<Flux>(c, u, v, w, i, j, k, inv, three_d) +
                       diffusivity * operators::laplacian(c, i, j, k, inv, three_d);
      });
}

// rhs += source over the owned cells (a free function: nvcc needs device lambdas outside private members).
void add_cellwise(const Field& rhs, const Field& source, const fields::LocalShape& shape) {
  Kokkos::parallel_for(
      "physics::scalar_source", grid::owned_cells(shape),
      KOKKOS_LAMBDA(int i, int j, int k) { rhs(i, j, k) += source(i, j, k); });
}

}  // namespace

ScalarTransport::ScalarTransport(const config::Deck& deck, parallel::Context& context,
                                 const grid::Decomposition& decomp, const operators::StaggeredGrid& grid,
                                 parallel::Transport halo_transport)
    : grid_(grid),
      advection_(deck.numerics.advection),
      configs_(deck.scalars),
      decomp_(decomp),
      constants_(deck.constants),
      comm_(context.comm()) {
  require(count() <= parallel::HaloExchange::max_fields,
          "scalars: at most " + std::to_string(parallel::HaloExchange::max_fields) + " scalars are supported");
  for (const auto& scalar : configs_) {
    values_.push_back(fields::make_field(scalar.name, grid.shape));
    rhs_current_.push_back(fields::make_field(scalar.name + "_rhs", grid.shape));
    rhs_previous_.push_back(fields::make_field(scalar.name + "_rhs_previous", grid.shape));
    boundaries_.emplace_back(scalar, decomp, grid.shape, deck.constants);
    Source source;
    if (scalar.source != "0") {
      source.expression = std::make_unique<config::Expression>(scalar.source, deck.constants);
      source.values = fields::make_field(scalar.name + "_source", grid.shape);
      source.when.unsteady = source.expression->uses("t");
    }
    sources_.push_back(std::move(source));
  }
  if (!values_.empty()) {
    halo_ = std::make_unique<parallel::HaloExchange>(context, decomp, grid.shape, values_, 1, halo_transport);
  }
}

std::vector<fields::NamedField> ScalarTransport::named_fields() const {
  std::vector<fields::NamedField> named;
  for (int n = 0; n < count(); ++n) named.push_back({configs_[n].name, values_[n]});
  return named;
}

int ScalarTransport::index_of(const std::string& name) const {
  for (int n = 0; n < count(); ++n) {
    if (configs_[n].name == name) return n;
  }
  return -1;
}

void ScalarTransport::set_boundary_time(double t) {
  for (auto& boundary : boundaries_) boundary.set_time(t);
}

void ScalarTransport::initialise(const grid::Decomposition& decomp) {
  set_boundary_time(0);
  for (int n = 0; n < count(); ++n) {
    set_initial_scalar(configs_[n], "scalars[" + std::to_string(n) + "]", constants_, decomp, values_[n],
                       grid_.shape.ghost, comm_);
  }
  fill_ghosts();
}

void ScalarTransport::fill_ghosts() {
  if (!halo_) return;
  halo_->exchange();
  for (int n = 0; n < count(); ++n) boundaries_[n].apply(values_[n], grid_.shape);
}

void ScalarTransport::compute_rhs(const fields::FlowState& state, double t) {
  for (int n = 0; n < count(); ++n) {
    operators::with_advection_scheme(advection_, [&](auto flux) {
      scalar_rhs<decltype(flux)>(values_[n], rhs_current_[n], state, configs_[n].diffusivity, grid_);
    });
    add_source(n, t);
  }
}

void ScalarTransport::add_source(int n, double t) {
  Source& source = sources_[n];
  if (!source.expression) return;
  if (source.when.stale(t)) {
    fill_from_expression(*source.expression, "scalars[" + std::to_string(n) + "].source", decomp_, source.values,
                         cell_centres, grid_.shape.ghost, comm_, t);
    source.when.mark(t);
  }
  add_cellwise(rhs_current_[n], source.values, grid_.shape);
}

void ScalarTransport::advance_stage(const fields::FlowState& state, Real current_weight, Real previous_weight,
                                    Real start_weight, const std::vector<Field>& start, double t) {
  if (count() == 0) return;
  require(start_weight == 0 || static_cast<int>(start.size()) == count(),
          "scalar stage: a start weight needs every scalar's value at the step's start");
  compute_rhs(state, t);
  const Real a = current_weight, b = previous_weight, s = start_weight, kept = 1 - start_weight;
  for (int n = 0; n < count(); ++n) {
    const Field c = values_[n], now = rhs_current_[n], before = rhs_previous_[n];
    if (s == 0) {
      Kokkos::parallel_for(
          "physics::scalar_stage_update", grid::owned_cells(grid_.shape),
          KOKKOS_LAMBDA(int i, int j, int k) { c(i, j, k) += a * now(i, j, k) + b * before(i, j, k); });
      continue;
    }
    const Field c0 = start[n];
    Kokkos::parallel_for(
        "physics::scalar_stage_update", grid::owned_cells(grid_.shape), KOKKOS_LAMBDA(int i, int j, int k) {
          c(i, j, k) = kept * c(i, j, k) + (a * now(i, j, k) + b * before(i, j, k) + s * c0(i, j, k));
        });
  }
  std::swap(rhs_current_, rhs_previous_);
  fill_ghosts();
}

}  // namespace eddy::physics
