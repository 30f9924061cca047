#include "run/run_outputs.hpp"

#include "config/print.hpp"
#include "io/run_directory.hpp"

#include <utility>

namespace eddy::run {
namespace {

// The run folder, prepared before any writer opens a file in it.
std::filesystem::path prepared_run_directory(const config::Deck& deck, parallel::Context& context, bool restarting) {
  return io::prepare_run_directory(deck.output, context, restarting, config::to_yaml(deck));
}

}  // namespace

RunOutputs::RunOutputs(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
                       parallel::Context& context, const std::optional<time::RestartPoint>& restart,
                       std::vector<fields::NamedField> scalars)
    : output_(deck.output),
      run_dir_(prepared_run_directory(deck, context, restart.has_value())),
      fields_(deck, decomp, shape, context, run_dir_, restart ? restart->step : -1),
      schedule_(deck.output, restart ? restart->time : 0),
      checkpoints_(deck, decomp, shape, context, run_dir_, config::to_yaml(deck)),
      telemetry_(run_dir_, context),
      scalars_(std::move(scalars)) {
  // The starting state is written (fresh run) or was written by the run before (restart): not due again.
  schedule_.due(restart ? restart->step : 0, restart ? restart->time : 0);
  if (restart) last_checkpoint_step_ = restart->step;
}

void RunOutputs::after_step(const fields::FlowState& state, const StepRecord& r,
                            const std::vector<fields::NamedField>& warm_start) {
  if (schedule_.due(r.step, r.time)) write_fields(state, r.time, r.step);
  const long long every = output_.checkpoint_interval_steps;
  if (every > 0 && r.step % every == 0) write_checkpoint(state, scalars_, warm_start, r.time, r.step, r.dt);
}

void RunOutputs::write_fields(const fields::FlowState& state, double time, long long step) {
  if (step == last_fields_step_ || fields_.arrays().empty()) return;
  fields_.write(state, scalars_, time, step);
  last_fields_step_ = step;
}

void RunOutputs::write_checkpoint(const fields::FlowState& state, const std::vector<fields::NamedField>& scalars,
                                  const std::vector<fields::NamedField>& warm_start, double time, long long step,
                                  double dt) {
  if (step == last_checkpoint_step_) return;
  checkpoints_.write(state, time, step, dt, scalars, warm_start);
  last_checkpoint_step_ = step;
}

void RunOutputs::finish(const io::JsonObject& summary) {
  telemetry_.flush();
  telemetry_.write_summary(summary);
}

}  // namespace eddy::run
