#include "command_line.hpp"

#include <charconv>

namespace eddy::app {
namespace {

bool is_help(const std::string& arg) { return arg == "--help" || arg == "-h" || arg == "help"; }

// Reads the value of `option` given as `--option value` or `--option=value`; advances `n` past it.
bool take_option(const std::vector<std::string>& args, std::size_t& n, const std::string& option, std::string& value) {
  const std::string& arg = args[n];
  if (arg == option) {
    if (n + 1 >= args.size()) throw UsageError(option + " needs a value");
    value = args[++n];
    return true;
  }
  if (arg.rfind(option + "=", 0) == 0) {
    value = arg.substr(option.size() + 1);
    return true;
  }
  return false;
}

int parse_rank_count(const std::string& text) {
  int ranks = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), ranks);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || ranks < 1) {
    throw UsageError("--ranks needs a whole number >= 1, got '" + text + "'");
  }
  return ranks;
}

// The options shared by `run` and `check`: a deck path, --set, and the subcommand's own options.
void parse_deck_options(const std::vector<std::string>& args, CommandLine& line) {
  const std::string subcommand = args[0];
  for (std::size_t n = 1; n < args.size(); ++n) {
    std::string value;
    if (is_help(args[n])) {
      line.command = Command::help;
      return;
    }
    if (take_option(args, n, "--set", value)) {
      line.overrides.push_back(value);
    } else if (subcommand == "run" && take_option(args, n, "--restart", value)) {
      if (value.empty()) throw UsageError("--restart needs 'latest' or a checkpoint path");
      line.restart = value;
    } else if (subcommand == "run" && args[n] == "--kernel-times") {
      line.kernel_times = true;
    } else if (subcommand == "check" && take_option(args, n, "--ranks", value)) {
      line.ranks = parse_rank_count(value);
    } else if (args[n].rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + args[n] + "' for 'eddy " + subcommand + "'");
    } else if (line.deck.empty()) {
      line.deck = args[n];
    } else {
      throw UsageError("'eddy " + subcommand + "' takes one deck, got '" + line.deck + "' and '" + args[n] + "'");
    }
  }
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine line;
  if (args.empty() || is_help(args[0])) return line;
  const std::string& subcommand = args[0];
  if (subcommand == "--version" || subcommand == "version") {
    if (args.size() > 1) throw UsageError("--version takes no arguments");
    line.command = Command::version;
  } else if (subcommand == "run" || subcommand == "check") {
    line.command = subcommand == "run" ? Command::run : Command::check;
    parse_deck_options(args, line);
  } else if (subcommand == "bench") {
    line.command = Command::bench;
    if (args.size() < 2) throw UsageError("'eddy bench' needs a benchmark NAME");
    if (is_help(args[1])) line.command = Command::help;
    line.bench_args.assign(args.begin() + 1, args.end());
  } else if (subcommand.rfind("-", 0) == 0) {
    throw UsageError("unknown option '" + subcommand + "'");
  } else {
    throw UsageError("unknown subcommand '" + subcommand + "'");
  }
  return line;
}

std::string usage_text() {
  return "usage: eddy <subcommand> [options]\n"
         "\n"
         "  eddy run [DECK.yaml] [--set KEY=VALUE ...] [--restart latest|PATH] [--kernel-times]\n"
         "      Run the case in DECK.yaml (default: the built-in 2D lid-driven cavity at Re = 100).\n"
         "      Launch with mpirun for several ranks. --kernel-times fences and times every kernel alone\n"
         "      (slower) and adds rank 0's kernels to the summary and summary.json.\n"
         "  eddy check [DECK.yaml] [--ranks N] [--set KEY=VALUE ...]\n"
         "      Validate the deck and print it with every default filled in, the grid, the decomposition\n"
         "      over N ranks (default 1) and the estimated memory per rank. Exit status 0 if valid, 2 if not.\n"
         "  eddy bench NAME [options]\n"
         "      Run a performance benchmark (halo, reduce, poisson, stencil, flow, step); each reports its time\n"
         "      against a floor measured in the same run. 'eddy bench NAME --help' lists its options.\n"
         "  eddy --help       This text.\n"
         "  eddy --version    Versions of eddy, Kokkos (and its backends), MPI, NCCL and HDF5.\n"
         "\n"
         "  --set KEY=VALUE   Override a deck key before validation; KEY is a dotted path and VALUE is YAML,\n"
         "                    e.g. --set domain.cells=[64,64] --set physics.viscosity=0.001\n"
         "                         --set output.directory=runs/x --set boundary.x_low={type: periodic}\n"
         "  Deck keys are documented in inputs/README.md. Exit status 2 means bad input.\n";
}

}  // namespace eddy::app
