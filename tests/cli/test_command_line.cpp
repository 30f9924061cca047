// Parsing of the eddy command line: subcommands, options in both spellings, and usage errors.
#include "app/command_line.hpp"

#include <gtest/gtest.h>

namespace eddy::app {
namespace {

TEST(CommandLine, RunWithDeckOverridesAndRestart) {
  const auto line =
      parse_command_line({"run", "deck.yaml", "--set", "a.b=1", "--set=c.d=[1, 2]", "--restart", "latest"});
  EXPECT_EQ(line.command, Command::run);
  EXPECT_EQ(line.deck, "deck.yaml");
  EXPECT_EQ(line.overrides, (std::vector<std::string>{"a.b=1", "c.d=[1, 2]"}));
  EXPECT_EQ(line.restart, "latest");
}

TEST(CommandLine, RunWithoutDeckUsesTheDefault) {
  const auto line = parse_command_line({"run", "--restart=runs/x/checkpoint_000100.h5"});
  EXPECT_EQ(line.command, Command::run);
  EXPECT_TRUE(line.deck.empty());
  EXPECT_EQ(line.restart, "runs/x/checkpoint_000100.h5");
}

TEST(CommandLine, RunWithKernelTimes) {
  EXPECT_TRUE(parse_command_line({"run", "deck.yaml", "--kernel-times"}).kernel_times);
  EXPECT_FALSE(parse_command_line({"run", "deck.yaml"}).kernel_times);
}

TEST(CommandLine, CheckWithRanks) {
  auto line = parse_command_line({"check", "d.yaml", "--ranks", "16"});
  EXPECT_EQ(line.command, Command::check);
  EXPECT_EQ(line.ranks, 16);
  EXPECT_EQ(parse_command_line({"check", "--ranks=3", "d.yaml"}).ranks, 3);
  EXPECT_EQ(parse_command_line({"check", "d.yaml"}).ranks, 1);
}

TEST(CommandLine, BenchPassesItsArgumentsThrough) {
  const auto line = parse_command_line({"bench", "jacobi", "--size", "256", "--set", "x"});
  EXPECT_EQ(line.command, Command::bench);
  EXPECT_EQ(line.bench_args, (std::vector<std::string>{"jacobi", "--size", "256", "--set", "x"}));
}

TEST(CommandLine, HelpAndVersion) {
  EXPECT_EQ(parse_command_line({}).command, Command::help);
  EXPECT_EQ(parse_command_line({"--help"}).command, Command::help);
  EXPECT_EQ(parse_command_line({"-h"}).command, Command::help);
  EXPECT_EQ(parse_command_line({"run", "--help"}).command, Command::help);
  EXPECT_EQ(parse_command_line({"--version"}).command, Command::version);
}

TEST(CommandLine, UsageErrors) {
  EXPECT_THROW(parse_command_line({"frobnicate"}), UsageError);
  EXPECT_THROW(parse_command_line({"--frobnicate"}), UsageError);
  EXPECT_THROW(parse_command_line({"run", "--ranks", "2"}), UsageError) << "--ranks belongs to check";
  EXPECT_THROW(parse_command_line({"check", "--restart", "latest"}), UsageError) << "--restart belongs to run";
  EXPECT_THROW(parse_command_line({"check", "--kernel-times"}), UsageError) << "--kernel-times belongs to run";
  EXPECT_THROW(parse_command_line({"check", "--ranks", "0"}), UsageError);
  EXPECT_THROW(parse_command_line({"check", "--ranks", "4x"}), UsageError);
  EXPECT_THROW(parse_command_line({"run", "--set"}), UsageError);
  EXPECT_THROW(parse_command_line({"run", "a.yaml", "b.yaml"}), UsageError);
  EXPECT_THROW(parse_command_line({"bench"}), UsageError);
  try {
    parse_command_line({"check", "--rank", "4"});
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown option '--rank' for 'eddy check'");
  }
}

TEST(CommandLine, EachSubcommandHasItsOwnHelp) {
  const auto run = parse_command_line({"run", "--help"});
  EXPECT_EQ(run.command, Command::help);
  for (const char* part : {"--restart", "--kernel-times", "--set"}) EXPECT_NE(run.help.find(part), std::string::npos);
  EXPECT_EQ(run.help.find("--ranks"), std::string::npos) << run.help;
  const auto check = parse_command_line({"check", "-h"});
  EXPECT_NE(check.help.find("--ranks"), std::string::npos) << check.help;
  EXPECT_EQ(check.help.find("--restart"), std::string::npos) << check.help;
  EXPECT_NE(parse_command_line({"--help"}).help.find("Examples"), std::string::npos);
}

TEST(CommandLine, UsageNamesEverySubcommand) {
  const auto text = usage_text();
  for (const char* part : {"eddy run", "eddy check", "eddy bench", "--help", "--version", "--set", "--ranks",
                           "--restart", "--kernel-times"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part;
  }
}

}  // namespace
}  // namespace eddy::app
