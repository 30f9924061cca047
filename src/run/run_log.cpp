#include "run/run_log.hpp"

#include <cstdio>

namespace eddy::run {

void print_step(const StepRecord& r) {
  std::printf("step %8lld  t %.6e  dt %.3e  cfl %.3f  ke %.6e  div %.2e  poisson %3d it %.1e  %.2f ms\n", r.step,
              r.time, r.dt, r.cfl, r.kinetic_energy, r.max_divergence, r.poisson_iterations, r.poisson_residual,
              1e3 * r.wall_seconds);
  if (!r.extra.empty()) {
    std::printf("     ");
    for (const auto& value : r.extra) std::printf(" %s %.6g", value.name.c_str(), value.value);
    std::printf("\n");
  }
  std::fflush(stdout);
}

}  // namespace eddy::run
