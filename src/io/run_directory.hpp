#pragma once
// The run folder: every result of a run (fields, checkpoints, telemetry, summary, the resolved deck) lives in it.
//
// A folder that already holds results of an earlier run (deck.yaml, telemetry.csv, summary.json, fields.xmf,
// fields_*.h5 or checkpoints/) is never overwritten silently:
//   - restarting: the folder is reused as it is (that is where the checkpoints are);
//   - output.overwrite = true: the old folder is moved aside to `<dir>.old-YYYYmmdd-HHMMSS` (nothing is deleted),
//     and a fresh folder is created;
//   - otherwise eddy::Error tells the user what to do.
#include "config/deck.hpp"
#include "parallel/context.hpp"

#include <filesystem>
#include <string>

namespace eddy::io {

/// True when `directory` holds results of an earlier run.
bool holds_results(const std::filesystem::path& directory);

/// Throws on every rank when a run cannot use output.directory (see above), before it prints or allocates anything.
void refuse_unusable_run_directory(const config::OutputConfig& output, parallel::Context& context, bool restarting);

/// Creates (or reuses, see above) output.directory and writes `deck_text` to deck.yaml in it; collective.
/// On a restart an existing deck.yaml that differs is kept as deck.before-restart-YYYYmmdd-HHMMSS.yaml, and a
/// telemetry.csv with other columns as telemetry.before-restart-YYYYmmdd-HHMMSS.csv.
/// Returns the folder's path.
std::filesystem::path prepare_run_directory(const config::OutputConfig& output, parallel::Context& context,
                                            bool restarting, const std::string& deck_text);

}  // namespace eddy::io
