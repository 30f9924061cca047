#include "time/tuning_plan.hpp"

namespace eddy::time {
namespace {

// Each kernel family keeps one portable form and at most one tuned form, chosen by the build (src/operators,
// src/solver).
std::string kernel_forms_of_this_build() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  return "GPU forms: velocity stage by tiles of 32 x 6 points, red-black sweep by phases, stencils by columns of "
         "cell pairs";
#else
  return "CPU forms: every stencil by rows, each row's x loop vectorized";
#endif
}

std::string write_mode_name(io::WriteMode mode) {
  return mode == io::WriteMode::collective ? "collective" : "token_passing";
}

}  // namespace

std::string TuningPlan::describe() const {
  return "halo " + parallel::to_string(halo) + ", reductions " + parallel::to_string(reductions) + ", overlap " +
         (overlap ? "on" : "off") + ", pair columns of " + std::to_string(pair_planes) + " planes, HDF5 " +
         write_mode_name(hdf5_writes) + "; " + kernel_forms;
}

io::JsonObject TuningPlan::json() const {
  io::JsonObject plan;
  plan.set("halo_transport", parallel::to_string(halo))
      .set("reduction_transport", parallel::to_string(reductions))
      .set("overlap", overlap)
      .set("pair_planes", pair_planes)
      .set("hdf5_writes", write_mode_name(hdf5_writes))
      .set("kernel_forms", kernel_forms);
  return plan;
}

TuningPlan make_tuning_plan(const config::Deck& deck, const parallel::Context& context,
                            const grid::Decomposition& decomp) {
  TuningPlan plan;
  plan.halo = parallel::choose_halo_transport(context, decomp, deck.parallel.halo_backend);
  plan.reductions = parallel::choose_reduction_transport(deck.parallel.reduction_backend);
  plan.overlap = deck.parallel.overlap;
  plan.pair_planes = deck.tuning.pair_planes;
  plan.hdf5_writes = io::write_mode(deck.tuning.hdf5_writes);
  plan.kernel_forms = kernel_forms_of_this_build();
  return plan;
}

}  // namespace eddy::time
