#include "io/run_directory.hpp"

#include "core/error.hpp"
#include "io/collective.hpp"
#include "io/telemetry.hpp"
#include "io/text_file.hpp"

#include <ctime>

namespace eddy::io {

namespace {

/// Local time as YYYYmmdd-HHMMSS, for names of folders and files moved aside.
std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%d-%H%M%S", &local);
  return text;
}

/// `base` + suffix, with -2, -3, ... appended if that name is taken.
std::filesystem::path unused_name(const std::string& base, const std::string& suffix = "") {
  std::filesystem::path candidate = base + suffix;
  for (int n = 2; std::filesystem::exists(candidate); ++n) candidate = base + "-" + std::to_string(n) + suffix;
  return candidate;
}

}  // namespace

bool holds_results(const std::filesystem::path& directory) {
  if (!std::filesystem::is_directory(directory)) return false;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name == "deck.yaml" || name == "telemetry.csv" || name == "summary.json" || name == "fields.xmf" ||
        name == "checkpoints" || (name.starts_with("fields_") && name.ends_with(".h5"))) {
      return true;
    }
  }
  return false;
}

namespace {

/// Removes the temporaries (*.tmp) a run killed while writing left in `directory` and its checkpoints/: each holds a
/// file that was never completed.
void remove_stale_temporaries(const std::filesystem::path& directory) {
  for (const auto& folder : {directory, directory / "checkpoints"}) {
    if (!std::filesystem::is_directory(folder)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".tmp") std::filesystem::remove(entry.path());
    }
  }
}

/// Throws when a run cannot use `output.directory` as it stands: a file in its place, or earlier results that a fresh
/// run without output.overwrite would replace.
void refuse_on_rank0(const config::OutputConfig& output, bool restarting) {
  const std::filesystem::path directory(output.directory);
  if (std::filesystem::exists(directory) && !std::filesystem::is_directory(directory)) {
    throw Error("output.directory: '" + output.directory + "' exists and is not a folder");
  }
  if (!restarting && !output.overwrite && holds_results(directory)) {
    throw Error("output.directory: '" + output.directory +
                "' already holds results of an earlier run; pass --set output.overwrite=true, choose another "
                "directory, or --restart latest");
  }
}

/// prepare_run_directory's work, on rank 0.
void prepare_on_rank0(const config::OutputConfig& output, bool restarting, const std::string& deck_text) {
  refuse_on_rank0(output, restarting);
  const std::filesystem::path directory(output.directory);
  const std::filesystem::path deck_file = directory / "deck.yaml";
  if (restarting) {
    std::filesystem::create_directories(directory);
    remove_stale_temporaries(directory);
    if (std::filesystem::exists(deck_file) && read_text(deck_file) != deck_text) {
      std::filesystem::rename(deck_file,
                              unused_name((directory / ("deck.before-restart-" + timestamp())).string(), ".yaml"));
    }
    // Rows appended under another header (a run of an earlier eddy with other columns) would not parse.
    const std::filesystem::path telemetry = directory / "telemetry.csv";
    if (std::filesystem::exists(telemetry) && std::filesystem::file_size(telemetry) > 0) {
      const std::string text = read_text(telemetry);
      if (text.substr(0, text.find('\n')) != Telemetry::header()) {
        std::filesystem::rename(
            telemetry, unused_name((directory / ("telemetry.before-restart-" + timestamp())).string(), ".csv"));
      }
    }
  } else if (holds_results(directory)) {
    std::string absolute = std::filesystem::weakly_canonical(directory).lexically_normal().string();
    if (absolute.size() > 1 && absolute.ends_with('/')) absolute.pop_back();
    const std::string here = std::filesystem::current_path().string();
    if (here == absolute || here.starts_with(absolute + "/")) {
      throw Error("output.directory: '" + output.directory +
                  "' holds results and contains the folder eddy runs in, which output.overwrite cannot move aside; "
                  "choose a subfolder, such as runs/<name>");
    }
    std::filesystem::rename(directory, unused_name(absolute + ".old-" + timestamp()));
  } else {
    remove_stale_temporaries(directory);
  }
  std::filesystem::create_directories(directory);
  write_text_atomically(deck_file, deck_text);
}

}  // namespace

void refuse_unusable_run_directory(const config::OutputConfig& output, parallel::Context& context, bool restarting) {
  run_on_rank0(context.comm(), [&] { refuse_on_rank0(output, restarting); });
}

std::filesystem::path prepare_run_directory(const config::OutputConfig& output, parallel::Context& context,
                                            bool restarting, const std::string& deck_text) {
  run_on_rank0(context.comm(), [&] {
    try {
      prepare_on_rank0(output, restarting, deck_text);
    } catch (const std::filesystem::filesystem_error& e) {
      throw Error("output.directory: cannot use '" + output.directory + "': " + e.code().message() + " (at '" +
                  e.path1().string() + "')");
    } catch (const Error& e) {
      const std::string message = e.what();
      if (message.starts_with("output.directory")) throw;
      throw Error("output.directory: cannot use '" + output.directory + "': " + message);
    }
  });
  return std::filesystem::path(output.directory);
}

}  // namespace eddy::io
