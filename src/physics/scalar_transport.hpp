#pragma once
// Transported cell-centred scalars (temperature, dye): their fields, right-hand sides, halo and boundary conditions,
// advanced inside the stages of the flow integrator with the same coefficients as the momentum:
//   c* = c + dt (gamma R_k + zeta R_{k-1}) + beta (c_0 - c),  R = -div(u c) + kappa Laplacian(c)  (u and c of the
//   stage start, c_0 of the step's start).
#include "config/deck.hpp"
#include "config/expression.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/context.hpp"
#include "parallel/halo_exchange.hpp"
#include "physics/scalar_boundary.hpp"

#include <memory>
#include <string>
#include <vector>

namespace eddy::physics {

class ScalarTransport {
 public:
  /// Allocates one field per deck scalar (at most HaloExchange::max_fields) and builds their halo (over
  /// `halo_transport`) and boundaries.
  ScalarTransport(const config::Deck& deck, parallel::Context& context, const grid::Decomposition& decomp,
                  const operators::StaggeredGrid& grid, parallel::Transport halo_transport);

  /// Number of scalars.
  int count() const { return static_cast<int>(values_.size()); }
  /// The field of scalar `n` (ghosts valid between stages).
  const Field& field(int n) const { return values_[n]; }
  /// The deck settings of scalar `n`.
  const config::ScalarConfig& config(int n) const { return configs_[n]; }
  /// Every scalar field with its deck name, in deck order (the fields themselves, not copies).
  std::vector<fields::NamedField> named_fields() const;
  /// Index of the scalar called `name`, or -1.
  int index_of(const std::string& name) const;

  /// Sets the initial fields and fills their ghosts.
  void initialise(const grid::Decomposition& decomp);
  /// One stage: R_k from the current velocity and scalars (with their sources at time t), c = (1 - s) c + a R_k +
  /// b R_{k-1} + s c_0 with c_0 from `start` (one field per scalar, read where s is not 0), ghosts refilled; call
  /// before the velocity of the stage is updated.
  void advance_stage(const fields::FlowState& state, Real current_weight, Real previous_weight, Real start_weight,
                     const std::vector<Field>& start, double t);
  /// The time of the face values given by expressions from now on (the end of the stage whose ghosts are filled next).
  void set_boundary_time(double t);
  /// Refills the ghosts: halo exchange, then the physical faces.
  void fill_ghosts();

 private:
  // A scalar's source from its expression, evaluated at the cell centres once, or at each stage where it reads t.
  struct Source {
    std::unique_ptr<config::Expression> expression;  // none: no source
    Field values;
    config::EvaluationTime when;
  };
  void compute_rhs(const fields::FlowState& state, double t);
  void add_source(int n, double t);

  operators::StaggeredGrid grid_;
  config::AdvectionScheme advection_;
  std::vector<config::ScalarConfig> configs_;
  grid::Decomposition decomp_;
  config::Constants constants_;  // for initial expressions
  std::vector<Source> sources_;
  MPI_Comm comm_;  // the run's ranks
  std::vector<Field> values_, rhs_current_, rhs_previous_;
  std::vector<ScalarBoundary> boundaries_;
  std::unique_ptr<parallel::HaloExchange> halo_;
};

}  // namespace eddy::physics
