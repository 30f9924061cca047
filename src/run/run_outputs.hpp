#pragma once
// Everything a run writes into its run folder, for the time loop: the folder itself with deck.yaml, field output
// on the output schedule, checkpoints, telemetry.csv and summary.json. Each write is collective.
#include "config/deck.hpp"
#include "core/step_record.hpp"
#include "fields/field.hpp"
#include "grid/decomposition.hpp"
#include "io/checkpoint.hpp"
#include "io/field_writer.hpp"
#include "io/json.hpp"
#include "io/output_schedule.hpp"
#include "io/telemetry.hpp"
#include "parallel/context.hpp"

#include "time/simulation.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eddy::run {

class RunOutputs {
 public:
  /// Prepares output.directory (an existing one with results is refused unless output.overwrite, or reused when
  /// restarting), writes deck.yaml, and opens field output, checkpoints and telemetry. `scalars` are the run's live
  /// scalar fields, which every checkpoint holds beside the flow and field output writes where output.fields asks.
  RunOutputs(const config::Deck& deck, const grid::Decomposition& decomp, const fields::LocalShape& shape,
             parallel::Context& context, const std::optional<time::RestartPoint>& restart,
             std::vector<fields::NamedField> scalars);

  /// Samples deck line n (collective).
  using LineSampler = std::function<physics::LineTable(int)>;

  /// After a step of `sim`: fields when the output schedule says so, the deck's lines and statistics when theirs do,
  /// a checkpoint (with the solvers' and statistics' warm-start state) every output.checkpoint_interval_steps.
  /// Returns what the statistics say for the log ("" when none were written or they say nothing).
  std::string after_step(const time::Simulation& sim, const StepRecord& record);
  /// Writes the statistics of `sim` (physics::FlowStatistics) unless this step's are written or none were sampled;
  /// returns what they say for the log.
  std::string write_statistics(const time::Simulation& sim);
  /// Writes every deck line and plane whose schedule is on (the starting state of a fresh run).
  void write_lines(const LineSampler& sample_line, const fields::FlowState& state, double time, long long step);
  /// Appends the step's row to telemetry.csv.
  void record(const StepRecord& record) { telemetry_.record(record); }
  /// Writes the fields (ghosts valid) and the selected scalars unless this step's are written or none are selected.
  void write_fields(const fields::FlowState& state, double time, long long step);
  /// Writes a checkpoint of `state`, `scalars` and the warm-start fields and numbers unless this step's is already
  /// written; `dt` is the step that reached this state.
  void write_checkpoint(const fields::FlowState& state, const std::vector<fields::NamedField>& scalars,
                        const std::vector<fields::NamedField>& warm_start, double time, long long step, double dt,
                        const std::vector<std::pair<std::string, double>>& warm_numbers = {});
  /// Writes the checkpoint of `sim`'s current state.
  void write_checkpoint(const time::Simulation& sim);
  /// Flushes telemetry and writes summary.json.
  void finish(const io::JsonObject& summary);

  /// True when the output schedule writes fields at all (output.interval_steps or output.interval_time set).
  bool writes_fields() const { return schedule_.enabled(); }
  /// The run folder.
  const std::filesystem::path& run_dir() const { return run_dir_; }

 private:
  config::Deck deck_;
  grid::Decomposition decomp_;
  parallel::Context* context_;
  config::OutputConfig output_;
  std::filesystem::path run_dir_;
  io::FieldWriter fields_;
  io::OutputSchedule schedule_;
  io::Checkpointer checkpoints_;
  io::Telemetry telemetry_;
  std::vector<fields::NamedField> scalars_;
  std::vector<config::LineConfig> lines_;
  std::vector<io::OutputSchedule> line_schedules_;  // per line: its interval_time, or the fields' schedule
  io::OutputSchedule statistics_schedule_;          // statistics.interval_time, or the fields' schedule
  std::vector<config::PlaneConfig> planes_;
  std::vector<io::OutputSchedule> plane_schedules_;  // per plane: its interval_time, or the fields' schedule
  bool writes_files_;                                // rank 0 writes the line files
  long long last_fields_step_ = -1, last_checkpoint_step_ = -1, last_statistics_step_ = -1;
  void write_line(int n, const physics::LineTable& table, double time, long long step) const;
};

}  // namespace eddy::run
