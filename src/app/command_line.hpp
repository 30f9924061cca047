#pragma once
// The `eddy` command line: subcommands, options and the usage text. Parsing only; main decides what to run.
#include "core/error.hpp"

#include <string>
#include <vector>

namespace eddy::app {

enum class Command { help, version, run, check, bench };

struct CommandLine {
  Command command = Command::help;
  std::string deck;                     ///< deck path; "" = the embedded default (run, check)
  std::vector<std::string> overrides;   ///< `--set key.path=value`, in order
  std::string restart;                  ///< `--restart latest|PATH` (run)
  bool kernel_times = false;            ///< `--kernel-times`: time every kernel alone (run)
  int ranks = 1;                        ///< `--ranks N`: the rank count to plan for (check)
  bool json = false;                    ///< `--json`: the check's report as one JSON object (check)
  std::vector<std::string> bench_args;  ///< benchmark NAME and its own options (bench)
  std::string help;                     ///< what --help of the command (or of eddy) prints (help)
};

/// A malformed command line; main prints it with the usage text and exits with status 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

/// Parses the arguments after the program name (CLI11); throws UsageError on an unknown subcommand or option.
CommandLine parse_command_line(const std::vector<std::string>& args);

/// The usage of eddy and its subcommands, for --help and after a usage error.
std::string usage_text();

}  // namespace eddy::app
