#include "physics/coupled_physics.hpp"

#include "physics/buoyancy.hpp"
#include "physics/heat_diagnostics.hpp"

#include <cmath>
#include <cstdio>

namespace eddy::physics {
namespace {

std::vector<std::string> scalar_names(const config::Deck& deck) {
  std::vector<std::string> names;
  for (const auto& scalar : deck.scalars) names.push_back(scalar.name);
  return names;
}

}  // namespace

CoupledPhysics::CoupledPhysics(const config::Deck& deck, parallel::Context& context, const grid::Decomposition& decomp,
                               const operators::StaggeredGrid& grid, parallel::Transport halo_transport)
    : deck_(deck),
      decomp_(decomp),
      grid_(grid),
      volume_force_(deck, decomp, grid.shape, context.comm()),
      drive_(deck.physics.drive, grid, decomp.global.total_cells()),
      scalars_(deck, context, decomp, grid, halo_transport),
      bodies_(deck, decomp, grid),
      probes_(deck, deck.probes, decomp, grid, scalar_names(deck)) {
  for (const auto& line : deck.lines) lines_.emplace_back(deck, line_points(line), decomp, grid, scalar_names(deck));
  if (deck.physics.beta_g != 0) temperature_ = scalars_.index_of("temperature");
  for (const auto& body : deck.bodies) {
    references_.push_back(body_reference(body, deck));
    forces_.push_back(BodyForce{body.name, {0, 0, 0}, {0, 0, 0}});
  }
  lift_.resize(deck.bodies.size());
}

void CoupledPhysics::initialise() { scalars_.initialise(decomp_); }

void CoupledPhysics::add_momentum_sources(const fields::FaceVector& rhs, double t) {
  if (temperature_ >= 0) add_buoyancy(scalars_.field(temperature_), rhs, grid_, deck_.physics);
  volume_force_.add(rhs, t);
  drive_.add_source(rhs);
}

void CoupledPhysics::advance_scalars(const fields::FlowState& state, Real current_weight, Real previous_weight,
                                     Real start_weight, const std::vector<Field>& start, double t) {
  scalars_.advance_stage(state, current_weight, previous_weight, start_weight, start, t);
}

void CoupledPhysics::force_bodies(const fields::FlowState& state, Real step_dt) {
  if (has_bodies()) bodies_.apply(state, step_dt);
}

void CoupledPhysics::finish_step(const fields::FlowState& state, StepRecord& record, const parallel::Reducer& reducer) {
  std::vector<Field> scalar_values;
  for (int n = 0; n < scalars_.count(); ++n) {
    scalar_diagnostics(scalars_.config(n), scalars_.field(n), decomp_, grid_, reducer, record.extra);
    scalar_values.push_back(scalars_.field(n));
  }
  probes_.sample(state, scalar_values, reducer, record.extra);
  drive_.finish_step({state.u, state.v, state.w}, record.dt, reducer, record.extra);
  if (!has_bodies()) return;
  const auto forces = bodies_.take_step_forces(reducer, deck_.physics.density);
  times_.push_back(record.time);
  const char* names[3] = {"_cd", "_cl", "_cs"};
  for (std::size_t b = 0; b < forces.size(); ++b) {
    const BodyReference& ref = references_[b];
    const double dynamic_pressure = 0.5 * deck_.physics.density * ref.velocity * ref.velocity * ref.area;
    forces_[b].force = forces[b];
    for (int c = 0; c < 3; ++c) forces_[b].coefficient[c] = forces[b][c] / dynamic_pressure;
    lift_[b].push_back(forces_[b].coefficient[1]);
    for (int c = 0; c < decomp_.global.dim; ++c) {
      record.extra.push_back({forces_[b].name + names[c], forces_[b].coefficient[c]});
    }
  }
}

LineTable CoupledPhysics::sample_line(int n, const fields::FlowState& state, const parallel::Reducer& reducer) const {
  const config::LineConfig& line = deck_.lines[n];
  const int dims = decomp_.global.dim;
  LineTable table;
  table.columns = {"s", "x", "y"};
  if (dims == 3) table.columns.push_back("z");
  for (const auto& quantity : lines_[n].quantities()) table.columns.push_back(quantity);
  std::vector<NamedValue> samples;
  std::vector<Field> scalar_values;
  for (int s = 0; s < scalars_.count(); ++s) scalar_values.push_back(scalars_.field(s));
  lines_[n].sample(state, scalar_values, reducer, samples);
  const std::size_t per_point = lines_[n].quantities().size();
  const auto points = line_points(line);
  double length = 0;
  for (int a = 0; a < dims; ++a) length += (line.to[a] - line.from[a]) * (line.to[a] - line.from[a]);
  length = std::sqrt(length);
  for (std::size_t p = 0; p < points.size(); ++p) {
    std::vector<double> row{length * static_cast<double>(p) / static_cast<double>(points.size() - 1)};
    for (int a = 0; a < dims; ++a) row.push_back(points[p].at[a]);
    for (std::size_t q = 0; q < per_point; ++q) row.push_back(samples[p * per_point + q].value);
    table.rows.push_back(row);
  }
  return table;
}

double CoupledPhysics::strouhal(int b) const { return strouhal_number(times_, lift_[b], references_[b]); }

void CoupledPhysics::print_summary(int rank) const {
  if (rank != 0) return;
  for (std::size_t b = 0; b < forces_.size(); ++b) {
    const auto& c = forces_[b].coefficient;
    std::printf("  body %-10s Cd %.4f  Cl %.4f (last step)", forces_[b].name.c_str(), c[0], c[1]);
    const double st = strouhal(static_cast<int>(b));
    if (st > 0) std::printf("  Strouhal %.4f (lift zero crossings, last half of the run)", st);
    std::printf("\n");
  }
  std::fflush(stdout);
}

}  // namespace eddy::physics
