#include "io/telemetry.hpp"

#include "core/error.hpp"
#include "io/collective.hpp"
#include "io/text_file.hpp"

#include <cstdio>

namespace eddy::io {

namespace {
constexpr auto flush_period = std::chrono::seconds(10);
}

std::string Telemetry::header() {
  std::string line =
      "step,time,dt,cfl,kinetic_energy,max_divergence,poisson_iterations,poisson_residual,poisson_guess_residual,"
      "wall_seconds";
  for (int p = 0; p < static_cast<int>(Phase::count); ++p) {
    line += "," + std::string(phase_name(static_cast<Phase>(p))) + "_seconds";
  }
  return line;
}

Telemetry::Telemetry(const std::filesystem::path& run_dir, parallel::Context& context, int flush_every)
    : run_dir_(run_dir), writer_(context.rank() == 0), flush_every_(flush_every > 0 ? flush_every : 1) {
  last_flush_ = std::chrono::steady_clock::now();
  run_on_rank0(context.comm(), [&] {
    const auto path = run_dir / "telemetry.csv";
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    out_.open(path, std::ios::app);
    if (!out_) throw Error("cannot open '" + path.string() + "' for writing");
    if (fresh) out_ << header() << '\n' << std::flush;
  });
}

Telemetry::~Telemetry() {
  if (out_.is_open()) out_.flush();
  if (physics_out_.is_open()) physics_out_.flush();
}

void Telemetry::record(const StepRecord& s) {
  if (!writer_) return;
  char line[512];
  int used = std::snprintf(line, sizeof(line), "%lld,%.12g,%.12g,%.8g,%.12g,%.6g,%d,%.6g,%.6g,%.6g", s.step, s.time,
                           s.dt, s.cfl, s.kinetic_energy, s.max_divergence, s.poisson_iterations, s.poisson_residual,
                           s.poisson_guess_residual, s.wall_seconds);
  for (double seconds : s.phase_seconds) {
    used += std::snprintf(line + used, sizeof(line) - static_cast<std::size_t>(used), ",%.6g", seconds);
  }
  out_ << line << '\n';
  if (!s.extra.empty()) record_physics(s);
  const auto now = std::chrono::steady_clock::now();
  if (++pending_ >= flush_every_ || now - last_flush_ >= flush_period) flush();
}

void Telemetry::record_physics(const StepRecord& s) {
  if (!physics_out_.is_open()) {
    const auto path = run_dir_ / "physics.csv";
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    physics_out_.open(path, std::ios::app);
    if (!physics_out_) throw Error("cannot open '" + path.string() + "' for writing");
    if (fresh) {
      physics_out_ << "step,time";
      for (const auto& value : s.extra) physics_out_ << ',' << value.name;
      physics_out_ << '\n';
    }
  }
  char number[32];
  std::snprintf(number, sizeof(number), "%lld,%.12g", s.step, s.time);
  physics_out_ << number;
  for (const auto& value : s.extra) {
    std::snprintf(number, sizeof(number), ",%.10g", value.value);
    physics_out_ << number;
  }
  physics_out_ << '\n';
}

void Telemetry::flush() {
  if (!writer_) return;
  out_.flush();
  if (physics_out_.is_open()) physics_out_.flush();
  pending_ = 0;
  last_flush_ = std::chrono::steady_clock::now();
}

void Telemetry::write_summary(const JsonObject& summary) const {
  if (!writer_) return;
  write_text_atomically(run_dir_ / "summary.json", summary.dump() + "\n");
}

}  // namespace eddy::io
