#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <charconv>

namespace eddy::app {
namespace {

constexpr const char* set_help =
    "Override a deck key before validation; KEY is a dotted path and VALUE is YAML, e.g. --set domain.cells=[64,64] "
    "--set physics.viscosity=0.001 --set boundary.x_low='{type: periodic}' (repeatable)";

constexpr const char* footer =
    "Examples:\n"
    "  eddy run inputs/cavity2d_re1000.yaml --set domain.cells=[256,256] --kernel-times\n"
    "  mpirun -np 4 eddy run inputs/taylor_green3d_re1600.yaml --restart latest\n"
    "  eddy check inputs/taylor_green3d_re1600.yaml --ranks 8\n"
    "  eddy bench step --n 128        (eddy bench NAME --help lists a benchmark's options)\n"
    "eddy run --help, eddy check --help: each subcommand's options.\n"
    "Deck keys: inputs/README.md. Exit status: 0 finished, 2 bad input, 3 diverged, 75 stopped early with a\n"
    "checkpoint, 1 an error during the run.";

int parse_rank_count(const std::string& text) {
  int ranks = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), ranks);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || ranks < 1) {
    throw UsageError("--ranks needs a whole number >= 1, got '" + text + "'");
  }
  return ranks;
}

// The parser of the whole command line, writing into `line` and `ranks` (checked after parsing).
struct Parser {
  CLI::App app{"eddy: incompressible Navier-Stokes on staggered grids, with Kokkos and MPI", "eddy"};
  CLI::App* run = nullptr;
  CLI::App* check = nullptr;
  CLI::App* bench = nullptr;
  bool version = false;
  std::string ranks = "1";

  explicit Parser(CommandLine& line) {
    app.footer(footer);
    app.add_flag("--version", version, "Versions of eddy, Kokkos (and its backends), MPI, NCCL and HDF5");
    app.require_subcommand(0, 1);
    run = app.add_subcommand("run",
                             "Run the case in DECK.yaml (default: the built-in 2D lid-driven cavity at Re = "
                             "100); launch with mpirun for several ranks");
    check = app.add_subcommand("check",
                               "Validate the deck and print it with every default filled in, the grid, the "
                               "blocks of N ranks and the memory per rank");
    bench = app.add_subcommand("bench",
                               "Run a performance benchmark NAME (halo, reduce, poisson, stencil, flow, "
                               "step), timed against a floor measured in the same run");
    for (CLI::App* sub : {run, check}) {
      sub->allow_extras();  // refused after parsing, with eddy's own message
      sub->add_option("deck", line.deck, "the input deck (default: the built-in cavity)")->type_name("DECK.yaml");
      sub->add_option("--set", line.overrides, set_help)->allow_extra_args(false);
      sub->footer("Deck keys: inputs/README.md. Exit status 2: bad input, nothing written.");
    }
    run->add_option("--restart", line.restart,
                    "continue from 'latest' (the newest checkpoint of the run folder) or "
                    "a checkpoint path");
    run->add_flag("--kernel-times", line.kernel_times,
                  "fence and time every kernel alone (slower); rank 0's kernels go into the summary");
    check->add_option("--ranks", ranks, "the rank count to plan the blocks and memory for (default 1)");
    check->add_flag("--json", line.json, "print the report as one JSON object, for scripts");
    // Everything after NAME is the benchmark's own (`eddy bench NAME --help`).
    bench->prefix_command();
    bench->footer(
        "NAME: halo, reduce, poisson, stencil, flow, step; eddy bench NAME --help lists its options "
        "(tests/perf/README.md)");
  }
};

// A CLI11 error at the top level as eddy's usage message.
UsageError usage_error(const CLI::ParseError& error, const std::vector<std::string>& args) {
  const std::string& first = args.front();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    return UsageError(first.rfind("-", 0) == 0 ? "unknown option '" + first + "'"
                                               : "unknown subcommand '" + first + "'");
  }
  return UsageError(error.what());
}

// Refuses what `sub` (run or check) took as extras: an option of another subcommand, or a second deck.
void refuse_extras(const CLI::App& sub, const CommandLine& line) {
  for (const auto& extra : sub.remaining()) {
    const std::string name = sub.get_name();
    if (extra.rfind("-", 0) == 0) throw UsageError("unknown option '" + extra + "' for 'eddy " + name + "'");
    throw UsageError("'eddy " + name + "' takes one deck, got '" + line.deck + "' and '" + extra + "'");
  }
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine line;
  if (args.empty() || args[0] == "help") {
    line.help = usage_text();
    return line;
  }
  Parser p(line);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes its arguments last first
  try {
    p.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    for (const CLI::App* sub : {p.run, p.check, p.bench}) {
      if (sub->parsed()) line.help = sub->help("eddy");
    }
    if (line.help.empty()) line.help = p.app.help();
    return line;
  } catch (const CLI::ParseError& error) {
    throw usage_error(error, args);
  }
  if (p.version) {
    if (args.size() > 1) throw UsageError("--version takes no arguments");
    line.command = Command::version;
  } else if (p.run->parsed()) {
    refuse_extras(*p.run, line);
    line.command = Command::run;
    if (p.run->count("--restart") > 0 && line.restart.empty()) {
      throw UsageError("--restart needs 'latest' or a checkpoint path");
    }
  } else if (p.check->parsed()) {
    refuse_extras(*p.check, line);
    line.command = Command::check;
    line.ranks = parse_rank_count(p.ranks);
  } else if (p.bench->parsed()) {
    line.command = Command::bench;
    line.bench_args = p.bench->remaining();
    if (line.bench_args.empty()) throw UsageError("'eddy bench' needs a benchmark NAME");
  } else {
    line.help = usage_text();
  }
  return line;
}

std::string usage_text() {
  CommandLine unused;
  const Parser p(unused);
  return p.app.help();
}

}  // namespace eddy::app
