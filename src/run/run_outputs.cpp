#include "run/run_outputs.hpp"

#include "config/print.hpp"
#include "io/plane_writer.hpp"
#include "io/run_directory.hpp"
#include "io/text_file.hpp"
#include "physics/flow_statistics.hpp"
#include "run/statistics_files.hpp"

#include <cstdio>
#include <utility>

namespace eddy::run {
namespace {

// A schedule of its own interval_time, else the fields' steps and times.
io::OutputSchedule own_schedule(double interval_time, const config::OutputConfig& output, double start_time) {
  config::OutputConfig own = output;
  if (interval_time > 0) {
    own.interval_steps = 0;
    own.interval_time = interval_time;
  }
  return io::OutputSchedule(own, start_time);
}

// The run folder, prepared before any writer opens a file in it.
std::filesystem::path prepared_run_directory(const config::Deck& deck, parallel::Context& context, bool restarting) {
  return io::prepare_run_directory(deck.output, context, restarting, config::to_yaml(deck));
}

}  // namespace

RunOutputs::RunOutputs(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                       parallel::Context& context, const std::optional<time::RestartPoint>& restart,
                       std::vector<fields::NamedField> scalars)
    : deck_(deck),
      decomp_(decomp),
      context_(&context),
      output_(deck.output),
      run_dir_(prepared_run_directory(deck, context, restart.has_value())),
      fields_(deck, decomp, shape, context, run_dir_, restart ? restart->step : -1),
      schedule_(deck.output, restart ? restart->time : 0),
      checkpoints_(deck, decomp, shape, context, run_dir_, config::to_yaml(deck)),
      telemetry_(run_dir_, context),
      scalars_(std::move(scalars)),
      lines_(deck.lines),
      statistics_schedule_(own_schedule(deck.statistics.interval_time, deck.output, restart ? restart->time : 0)),
      planes_(deck.planes),
      writes_files_(context.rank() == 0) {
  // The starting state is written (fresh run) or was written by the run before (restart): not due again.
  schedule_.due(restart ? restart->step : 0, restart ? restart->time : 0);
  for (const auto& line : lines_) {
    line_schedules_.push_back(own_schedule(line.interval_time, output_, restart ? restart->time : 0));
    line_schedules_.back().due(restart ? restart->step : 0, restart ? restart->time : 0);
  }
  for (const auto& plane : planes_) {
    plane_schedules_.push_back(own_schedule(plane.interval_time, output_, restart ? restart->time : 0));
    plane_schedules_.back().due(restart ? restart->step : 0, restart ? restart->time : 0);
  }
  statistics_schedule_.due(restart ? restart->step : 0, restart ? restart->time : 0);
  if (restart) last_checkpoint_step_ = last_statistics_step_ = restart->step;
}

std::string RunOutputs::after_step(const time::Simulation& sim, const StepRecord& r) {
  if (schedule_.due(r.step, r.time)) write_fields(sim.state(), r.time, r.step);
  for (std::size_t n = 0; n < lines_.size(); ++n) {
    if (line_schedules_[n].due(r.step, r.time))
      write_line(static_cast<int>(n), sim.sample_line(static_cast<int>(n)), r.time, r.step);
  }
  for (std::size_t n = 0; n < planes_.size(); ++n) {
    if (plane_schedules_[n].due(r.step, r.time)) {
      io::write_plane(planes_[n], sim.state(), scalars_, decomp_, *context_, run_dir_, r.time, r.step);
    }
  }
  std::string said;
  if (statistics_schedule_.due(r.step, r.time)) said = write_statistics(sim);
  const long long every = output_.checkpoint_interval_steps;
  if (every > 0 && r.step % every == 0) write_checkpoint(sim);
  return said;
}

std::string RunOutputs::write_statistics(const time::Simulation& sim) {
  const physics::FlowStatistics& statistics = sim.statistics();
  if (!statistics.enabled() || statistics.window().samples == 0 || sim.step() == last_statistics_step_) return "";
  last_statistics_step_ = sim.step();
  return write_statistics_files(statistics, deck_, decomp_, *context_, run_dir_,
                                io::write_mode(deck_.tuning.hdf5_writes), sim.step());
}

void RunOutputs::write_checkpoint(const time::Simulation& sim) {
  write_checkpoint(sim.state(), sim.scalar_fields(), sim.warm_start_fields(), sim.time(), sim.step(), sim.previous_dt(),
                   sim.warm_start_numbers());
}

void RunOutputs::write_lines(const LineSampler& sample_line, const fields::FlowState& state, double time,
                             long long step) {
  for (std::size_t n = 0; n < lines_.size(); ++n) {
    if (line_schedules_[n].enabled()) write_line(static_cast<int>(n), sample_line(static_cast<int>(n)), time, step);
  }
  for (std::size_t n = 0; n < planes_.size(); ++n) {
    if (plane_schedules_[n].enabled())
      io::write_plane(planes_[n], state, scalars_, decomp_, *context_, run_dir_, time, step);
  }
}

void RunOutputs::write_line(int n, const physics::LineTable& table, double time, long long step) const {
  if (!writes_files_) return;
  std::string text = "time";
  for (const auto& column : table.columns) text += "," + column;
  text += "\n";
  char number[32];
  for (const auto& row : table.rows) {
    std::snprintf(number, sizeof(number), "%.12g", time);
    text += number;
    for (double value : row) {
      std::snprintf(number, sizeof(number), ",%.10g", value);
      text += number;
    }
    text += "\n";
  }
  char name[64];
  std::snprintf(name, sizeof(name), "_%06lld.csv", step);
  const auto folder = run_dir_ / "lines";
  std::filesystem::create_directories(folder);
  io::write_text_atomically(folder / (lines_[n].name + name), text);
}

void RunOutputs::write_fields(const fields::FlowState& state, double time, long long step) {
  if (step == last_fields_step_ || fields_.arrays().empty()) return;
  fields_.write(state, scalars_, time, step);
  last_fields_step_ = step;
}

void RunOutputs::write_checkpoint(const fields::FlowState& state, const std::vector<fields::NamedField>& scalars,
                                  const std::vector<fields::NamedField>& warm_start, double time, long long step,
                                  double dt, const std::vector<std::pair<std::string, double>>& warm_numbers) {
  if (step == last_checkpoint_step_) return;
  checkpoints_.write(state, time, step, dt, scalars, warm_start, warm_numbers);
  last_checkpoint_step_ = step;
}

void RunOutputs::finish(const io::JsonObject& summary) {
  telemetry_.flush();
  telemetry_.write_summary(summary);
}

}  // namespace eddy::run
