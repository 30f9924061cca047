// eddy: incompressible Navier-Stokes on staggered grids with Kokkos and MPI.
// main reads the command line, then deck -> simulation -> run; everything else lives in the stages it names.
#include "bench/bench.hpp"
#include "check_command.hpp"
#include "command_line.hpp"
#include "deck_loading.hpp"
#include "io/run_directory.hpp"
#include "parallel/context.hpp"
#include "run/run_case.hpp"
#include "time/simulation.hpp"
#include "version.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace {

using namespace eddy;

int run_case(const app::CommandLine& line) {
  Kokkos::ScopeGuard kokkos(parallel::kokkos_settings_for_rank(MPI_COMM_WORLD));
  parallel::Context ctx;
  if (line.command == app::Command::bench) return bench::run(line.bench_args, ctx);
  const auto deck = app::load_deck_on_all_ranks(line, ctx.comm());  // bad input: nothing is written
  if (!deck) return run::exit_bad_input;
  io::refuse_unusable_run_directory(deck->output, ctx, !line.restart.empty());  // before the startup block
  time::Simulation sim(*deck, ctx, time::RunOptions{line.restart, false, line.kernel_times});
  return run::run_case(sim);
}

// True when every rank of `failures` fails too, within a few seconds: a check of the deck or of the rank count that
// every rank makes alike. A rank that fails alone leaves the barrier open, and the others are aborted.
bool every_rank_fails(MPI_Comm failures) {
  constexpr double patience_seconds = 3;
  MPI_Request all_failed = MPI_REQUEST_NULL;
  MPI_Ibarrier(failures, &all_failed);
  int done = 0;
  for (const double until = MPI_Wtime() + patience_seconds; !done && MPI_Wtime() < until;) {
    MPI_Test(&all_failed, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done != 0;
}

}  // namespace

int main(int argc, char** argv) {
  app::CommandLine line;
  try {
    line = app::parse_command_line({argv + 1, argv + argc});
  } catch (const app::UsageError& e) {
    std::fprintf(stderr, "eddy: error: %s\n\n%s", e.what(), app::usage_text().c_str());
    return run::exit_bad_input;
  }
  if (line.command == app::Command::help) return std::fputs(line.help.c_str(), stdout), 0;
  if (line.command == app::Command::version) return std::fputs(app::version_report().c_str(), stdout), 0;

  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm failures = MPI_COMM_NULL;  // for failing ranks alone: no other call waits on it
  MPI_Comm_dup(MPI_COMM_WORLD, &failures);
  bool abort_others = false;
  const auto report = [&](const char* message, bool every_rank) {
    every_rank = every_rank || every_rank_fails(failures);
    abort_others = !every_rank;
    if (every_rank && rank != 0) return;
    const std::string where = size > 1 && !every_rank ? "rank " + std::to_string(rank) + ": " : "";
    std::fprintf(stderr, "eddy: error: %s%s\n", where.c_str(), message);
  };
  try {
    status = line.command == app::Command::check ? app::run_check(line, rank) : run_case(line);
  } catch (const run::RunFailure& e) {
    report(e.what(), e.on_every_rank());
    status = run::exit_failed;
  } catch (const Error& e) {  // raised before the first step: bad input, or an environment eddy cannot use
    report(e.what(), e.on_every_rank());
    status = run::exit_bad_input;
  } catch (const std::exception& e) {
    report(e.what(), false);
    status = run::exit_failed;
  }
  // The other ranks may wait in a collective for the one that failed alone.
  if (abort_others && size > 1) MPI_Abort(MPI_COMM_WORLD, status);
  // Every rank reached the same status; only rank 0 returns it, so the launcher cannot end the job while rank 0
  // still writes its message, summary or last checkpoint.
  if (rank != 0) status = 0;
  MPI_Comm_free(&failures);
  MPI_Finalize();
  return status;
}
