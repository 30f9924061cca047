#include "solver/poisson_level.hpp"

#include "core/error.hpp"
#include "solver/communication_scope.hpp"

#include <algorithm>

namespace eddy::solver {

bool PoissonLevel::singular() const {
  for (const auto f : faces) {
    if (f == PressureBoundary::dirichlet) return false;
  }
  return true;
}

Int3 coarsening_factor(const PoissonLevel& fine) {
  Int3 factor{1, 1, 1};
  const auto& d = fine.decomp;
  const int axes = d.global.dim == 2 ? 2 : 3;
  Real finest = fine.spacing[0];
  for (int a = 1; a < axes; ++a) finest = std::min(finest, fine.spacing[a]);
  for (int a = 0; a < axes; ++a) {
    bool all = true;
    for (int c = 0; c < d.dims[a]; ++c) {
      const int n = grid::block_size(d.global.cells[a], d.dims[a], c);
      all = all && n % 2 == 0 && n >= 4;
    }
    // Only the finest axes are halved, so that no level's cells grow longer than twice their width along another
    // axis, where a point smoother loses its rate: an axis whose count is odd stops the others at that ratio too.
    if (all && fine.spacing[a] <= finest * (1 + 1e-9)) factor[a] = 2;
  }
  return factor;
}

PoissonLevel coarsen(const PoissonLevel& fine, const Int3& factor) {
  PoissonLevel coarse = fine;
  for (int a = 0; a < 3; ++a) {
    require(fine.decomp.local_cells[a] % factor[a] == 0 && fine.decomp.offset[a] % factor[a] == 0,
            "multigrid: a block cannot be coarsened evenly");
    coarse.decomp.global.cells[a] /= factor[a];
    coarse.decomp.local_cells[a] /= factor[a];
    coarse.decomp.offset[a] /= factor[a];
    coarse.spacing[a] *= factor[a];
    if (factor[a] == 2 && coarse.decomp.global.stretched(a)) {
      auto& faces = coarse.decomp.global.faces[a];
      for (std::size_t m = 0; 2 * m < faces.size(); ++m) faces[m] = faces[2 * m];  // every other face stays
      faces.resize(faces.size() / 2 + 1);
    }
  }
  coarse.shape = fields::local_shape(coarse.decomp, 1, fine.shape.pair_planes);
  return coarse;
}

GhostFiller::GhostFiller(parallel::Context& context, const PoissonLevel& level, parallel::Transport transport,
                         bool in_plane)
    : context_(&context), level_(level), exchanged_(level.decomp), transport_(transport) {
  if (in_plane && level.decomp.global.dim == 2) exchanged_.global.periodic[2] = false;
  has_messages_or_copies_ = !parallel::plan_halo(exchanged_, level_.shape, 1).empty();
}

parallel::HaloExchange& GhostFiller::halo_for(Field f) {
  if (!halo_) {
    halo_ = std::make_unique<parallel::HaloExchange>(*context_, exchanged_, level_.shape, std::vector<Field>{f}, 1,
                                                     transport_);
    if (level_.exchange_clock != nullptr && !halo_->blocks_host() && parallel::ExchangeClock::measures()) {
      halo_->time_on(*level_.exchange_clock);
    }
  } else if (bound_ != f.data()) {
    halo_->rebind({f});
  }
  bound_ = f.data();
  return *halo_;
}

bool GhostFiller::enqueues_only() const { return !halo_ || halo_->enqueues_only(); }

void GhostFiller::fill(Field f) {
  exchange(f);
  apply_pressure_ghosts(f, level_.shape, level_.decomp, level_.faces);
}

void GhostFiller::exchange(Field f) {
  if (!has_messages_or_copies_) return;
  auto& halo = halo_for(f);
  // Where phases are timed exactly, an exchange timed on the device is charged after the solve (make_poisson_solver),
  // not by its enqueueing here.
  const bool charged_after = halo.timed() && level_.timers != nullptr && level_.timers->exact();
  CommunicationScope scope(charged_after ? nullptr : level_.timers, Phase::poisson_halo, halo.blocks_host());
  halo.exchange();
}

}  // namespace eddy::solver
