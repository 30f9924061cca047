// eddy: incompressible Navier-Stokes on staggered grids with Kokkos and MPI.
// main reads the command line, then deck -> simulation -> run; everything else lives in the stages it names.
#include "bench/bench.hpp"
#include "check_command.hpp"
#include "command_line.hpp"
#include "deck_loading.hpp"
#include "parallel/context.hpp"
#include "run/run_case.hpp"
#include "time/simulation.hpp"
#include "version.hpp"

#include <cstdio>
#include <string>

namespace {

using namespace eddy;

int run_case(const app::CommandLine& line) {
  Kokkos::ScopeGuard kokkos(parallel::kokkos_settings_for_rank(MPI_COMM_WORLD));
  parallel::Context ctx;
  if (line.command == app::Command::bench) return bench::run(line.bench_args, ctx);
  const auto deck = app::load_deck_on_all_ranks(line, ctx.comm());  // bad input: nothing is written
  if (!deck) return 2;
  time::Simulation sim(*deck, ctx, time::RunOptions{line.restart, false, line.kernel_times});
  return run::run_case(sim);
}

}  // namespace

int main(int argc, char** argv) {
  app::CommandLine line;
  try {
    line = app::parse_command_line({argv + 1, argv + argc});
  } catch (const app::UsageError& e) {
    std::fprintf(stderr, "eddy: error: %s\n\n%s", e.what(), app::usage_text().c_str());
    return 2;
  }
  if (line.command == app::Command::help) return std::fputs(app::usage_text().c_str(), stdout), 0;
  if (line.command == app::Command::version) return std::fputs(app::version_report().c_str(), stdout), 0;

  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    status = line.command == app::Command::check ? app::run_check(line, rank) : run_case(line);
    // Every rank reached the same status; only rank 0 returns it, so the launcher cannot end the job while rank 0
    // still writes its message, summary or last checkpoint.
    if (rank != 0) status = 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eddy: error: %s%s\n", size > 1 ? ("rank " + std::to_string(rank) + ": ").c_str() : "",
                 e.what());
    if (size > 1) MPI_Abort(MPI_COMM_WORLD, 1);  // the other ranks may wait in a collective forever
    status = 1;
  }
  MPI_Finalize();
  return status;
}
