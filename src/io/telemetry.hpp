#pragma once
// Per-step diagnostics of a run in `telemetry.csv` (rank 0 writes; appended to on a restart) and the end-of-run
// `summary.json`. Columns: step, time, dt, cfl, kinetic_energy, max_divergence, poisson_iterations,
// poisson_residual, poisson_guess_residual (the largest relative residual of the step's initial guesses: how far each
// solve started from its solution), wall_seconds, then `<phase>_seconds` for every eddy::Phase. Steps with
// coupled-physics values (StepRecord::extra: Nusselt numbers, scalar ranges, force coefficients) also go to
// `physics.csv`: step, time, then one column per name.
#include "core/step_record.hpp"
#include "io/json.hpp"
#include "parallel/context.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace eddy::io {

class Telemetry {
 public:
  /// Opens `run_dir`/telemetry.csv for appending (header written when the file is new); flushes every
  /// `flush_every` records and at least every 10 s of wall time.
  Telemetry(const std::filesystem::path& run_dir, parallel::Context& context, int flush_every = 10);
  ~Telemetry();
  Telemetry(const Telemetry&) = delete;
  Telemetry& operator=(const Telemetry&) = delete;

  /// Appends one row (rank 0; a no-op elsewhere).
  void record(const StepRecord& step);
  /// Pushes buffered rows to the file.
  void flush();
  /// Writes `run_dir`/summary.json atomically (rank 0).
  void write_summary(const JsonObject& summary) const;

  /// The CSV header line (no newline).
  static std::string header();

 private:
  void record_physics(const StepRecord& step);

  std::filesystem::path run_dir_;
  bool writer_;
  int flush_every_;
  int pending_ = 0;
  std::ofstream out_;
  std::ofstream physics_out_;
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace eddy::io
