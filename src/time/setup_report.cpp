#include "time/setup_report.hpp"

#include "config/names.hpp"
#include "solver/conjugate_gradient.hpp"

#include <cstdio>

namespace eddy::time {

void print_startup(const config::Deck& deck, const grid::Decomposition& decomp, const SetupDescription& setup) {
  const auto& g = decomp.global;
  std::printf("eddy %s: case '%s' (%s)\n", EDDY_VERSION, deck.name.c_str(), deck.source.c_str());
  std::printf("  grid          %dD, %d x %d x %d cells, spacing %.4g x %.4g x %.4g, periodic %c%c%c\n", g.dim,
              g.cells[0], g.cells[1], g.cells[2], g.spacing(0), g.spacing(1), g.spacing(2), g.periodic[0] ? 'x' : '-',
              g.periodic[1] ? 'y' : '-', g.periodic[2] ? 'z' : '-');
  for (int a = 0; a < g.dim; ++a) {
    if (g.stretched(a)) {
      std::printf("  stretched     %c: cells %.4g to %.4g wide\n", "xyz"[a], g.smallest_width(a), g.largest_width(a));
    }
  }
  std::printf("  decomposition %d ranks as %d x %d x %d, rank 0 block %d x %d x %d\n", decomp.size, decomp.dims[0],
              decomp.dims[1], decomp.dims[2], decomp.local_cells[0], decomp.local_cells[1], decomp.local_cells[2]);
  std::printf("  tuning plan   %s\n", setup.tuning_plan.c_str());
  std::printf("  flow          nu %.4g, %s advection, %s in time, %s dt, %s precision\n", deck.physics.viscosity,
              config::to_string(deck.numerics.advection).c_str(), config::to_string(deck.time.scheme).c_str(),
              deck.time.adaptive ? "adaptive" : "fixed", precision_name);
  char intermediate[48] = "";
  if (deck.pressure.intermediate_rtol > 0)
    std::snprintf(intermediate, sizeof intermediate, " (earlier stages %.1e)", deck.pressure.intermediate_rtol);
  char round_off[64] = "";
  if (deck.pressure.rtol < solver::round_off_rtol)
    std::snprintf(round_off, sizeof round_off, " (below %s precision's round-off: %.1e)", precision_name,
                  solver::round_off_rtol);
  std::printf("  pressure      %s, rtol %.1e%s%s%s%s\n", setup.poisson_solver.c_str(), deck.pressure.rtol, round_off,
              intermediate, setup.poisson_hierarchy.empty() ? "" : "; ", setup.poisson_hierarchy.c_str());
  std::fflush(stdout);
}

}  // namespace eddy::time
