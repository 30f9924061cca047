// The run folder (refusal of earlier results, overwrite moves aside, restart reuses), telemetry.csv and
// summary.json, the output schedule, and field files that fail to write.
#include "core/error.hpp"
#include "io/field_writer.hpp"
#include "io/output_schedule.hpp"
#include "io/run_directory.hpp"
#include "io/telemetry.hpp"
#include "io/text_file.hpp"
#include "io_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace eddy;

TEST(RunDirectory, CreatesRefusesMovesAsideAndReuses) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto scratch = io_test::scratch_folder(MPI_COMM_WORLD, "run_directory");
  config::OutputConfig output;
  output.directory = (scratch / "nested" / "run").string();
  const auto dir = io::prepare_run_directory(output, context, false, "name: first\n");
  EXPECT_EQ(io::read_text(dir / "deck.yaml"), "name: first\n");
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has read before rank 0 changes the folder again

  try {
    io::prepare_run_directory(output, context, false, "name: second\n");
    ADD_FAILURE() << "an existing run folder was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("already holds results of an earlier run; pass --set "
                        "output.overwrite=true, choose another directory, or --restart latest"),
              std::string::npos);
  }
  EXPECT_EQ(io::read_text(dir / "deck.yaml"), "name: first\n");
  MPI_Barrier(MPI_COMM_WORLD);

  io::prepare_run_directory(output, context, true, "name: restarted\n");
  EXPECT_EQ(io::read_text(dir / "deck.yaml"), "name: restarted\n");
  int kept = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with("deck.before-restart-")) {
      EXPECT_EQ(io::read_text(entry.path()), "name: first\n");
      ++kept;
    }
  }
  EXPECT_EQ(kept, 1);
  MPI_Barrier(MPI_COMM_WORLD);

  output.overwrite = true;
  io::prepare_run_directory(output, context, false, "name: third\n");
  EXPECT_EQ(io::read_text(dir / "deck.yaml"), "name: third\n");
  int moved = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scratch / "nested")) {
    if (entry.path().filename().string().starts_with("run.old-")) {
      EXPECT_EQ(io::read_text(entry.path() / "deck.yaml"), "name: restarted\n");
      ++moved;
    }
  }
  EXPECT_EQ(moved, 1);
}

TEST(RunDirectory, RestartKeepsTelemetryOfOtherColumnsAside) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto scratch = io_test::scratch_folder(MPI_COMM_WORLD, "run_directory_telemetry");
  config::OutputConfig output;
  output.directory = (scratch / "run").string();
  const auto dir = io::prepare_run_directory(output, context, false, "name: first\n");
  const std::string current = io::Telemetry::header() + "\n1,0.1\n";
  const std::string older = "step,time,wall_seconds\n1,0.1,0.2\n";
  const auto moved_aside = [&] {
    std::vector<std::string> texts;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().filename().string().starts_with("telemetry.before-restart-")) {
        texts.push_back(io::read_text(entry.path()));
      }
    }
    return texts;
  };
  if (context.rank() == 0) std::ofstream(dir / "telemetry.csv") << current;
  MPI_Barrier(MPI_COMM_WORLD);
  io::prepare_run_directory(output, context, true, "name: first\n");
  EXPECT_EQ(io::read_text(dir / "telemetry.csv"), current) << "a restart appends to telemetry of the same columns";
  EXPECT_TRUE(moved_aside().empty());
  MPI_Barrier(MPI_COMM_WORLD);

  if (context.rank() == 0) std::ofstream(dir / "telemetry.csv") << older;
  MPI_Barrier(MPI_COMM_WORLD);
  io::prepare_run_directory(output, context, true, "name: first\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "telemetry.csv"));
  EXPECT_EQ(moved_aside(), std::vector<std::string>{older});
}

// A run killed while writing leaves its temporaries; the next run in the folder (a restart) removes them, and nothing
// else. A folder that is a file, or lies under one, is refused naming output.directory.
TEST(RunDirectory, RestartRemovesStaleTemporariesAndBadFoldersNameTheKey) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto scratch = io_test::scratch_folder(MPI_COMM_WORLD, "run_directory_debris");
  config::OutputConfig output;
  output.directory = (scratch / "run").string();
  const auto dir = io::prepare_run_directory(output, context, false, "name: first\n");
  if (context.rank() == 0) {
    std::filesystem::create_directories(dir / "checkpoints");
    for (const auto& name : {"checkpoints/checkpoint_000004.h5.tmp", "fields_000004.h5.tmp", "summary.json.tmp",
                             "checkpoints/checkpoint_000002.h5", "fields_000002.h5", "notes.txt"}) {
      std::ofstream(dir / name) << "x";
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  io::prepare_run_directory(output, context, true, "name: first\n");
  for (const auto& name : {"checkpoints/checkpoint_000004.h5.tmp", "fields_000004.h5.tmp", "summary.json.tmp"}) {
    EXPECT_FALSE(std::filesystem::exists(dir / name)) << name;
  }
  for (const auto& name : {"checkpoints/checkpoint_000002.h5", "fields_000002.h5", "notes.txt", "deck.yaml"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  }
  MPI_Barrier(MPI_COMM_WORLD);

  if (context.rank() == 0) std::ofstream(scratch / "a_file") << "x";
  MPI_Barrier(MPI_COMM_WORLD);
  for (const auto& bad : {scratch / "a_file", scratch / "a_file" / "run"}) {
    output.directory = bad.string();
    try {
      io::prepare_run_directory(output, context, false, "name: first\n");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& error) {
      EXPECT_TRUE(std::string(error.what()).starts_with("output.directory: ")) << error.what();
      EXPECT_TRUE(error.on_every_rank()) << error.what();
    }
  }
}

TEST(Telemetry, WritesHeaderRowsAndSummary) {
  parallel::Context context(MPI_COMM_WORLD);
  const auto dir = io_test::scratch_folder(MPI_COMM_WORLD, "telemetry");
  for (int run = 0; run < 2; ++run) {  // the second run appends, as after a restart
    io::Telemetry telemetry(dir, context, 2);
    for (int n = 1; n <= 3; ++n) {
      StepRecord record;
      record.step = 3 * run + n;
      record.time = 0.5 * record.step;
      record.poisson_iterations = 7;
      record.phase_seconds[static_cast<int>(Phase::poisson)] = 0.25;
      telemetry.record(record);
    }
    telemetry.write_summary(
        io::JsonObject()
            .set("case", "test \"quoted\"")
            .set("steps", 3)
            .set("nested", io::JsonObject().set("nan", std::nan("")).set("list", std::vector<double>{1, 2.5})));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::istringstream csv(io::read_text(dir / "telemetry.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, io::Telemetry::header());
  EXPECT_NE(line.find(",poisson_seconds,poisson_halo_seconds,poisson_reduction_seconds,"), std::string::npos);
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    EXPECT_EQ(line.rfind(std::to_string(rows) + ",", 0), 0u) << line;
    EXPECT_NE(line.find(",7,"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 6);
  EXPECT_EQ(io::read_text(dir / "summary.json"),
            "{\n  \"case\": \"test \\\"quoted\\\"\",\n  \"steps\": 3,\n  \"nested\": {\n    \"nan\": null,\n"
            "    \"list\": [\n      1.0,\n      2.5\n    ]\n  }\n}\n");
}

TEST(OutputSchedule, StepsAndTimeMultiples) {
  config::OutputConfig by_steps;
  by_steps.interval_steps = 5;
  io::OutputSchedule steps(by_steps);
  std::vector<long long> due;
  for (long long s = 0; s <= 12; ++s)
    if (steps.due(s, 0.1 * s)) due.push_back(s);
  EXPECT_EQ(due, (std::vector<long long>{0, 5, 10}));

  config::OutputConfig by_time;
  by_time.interval_time = 0.25;
  io::OutputSchedule times(by_time);
  due.clear();
  double t = 0;
  for (long long s = 0; s <= 30; ++s, t += 0.1) {  // t accumulates round-off, as in a run
    if (times.due(s, t)) due.push_back(s);
  }
  // Multiples 0, 0.25, 0.5, ... are first reached at steps 0, 3, 5, 8, 10, ...
  EXPECT_EQ(due, (std::vector<long long>{0, 3, 5, 8, 10, 13, 15, 18, 20, 23, 25, 28, 30}));

  io::OutputSchedule restarted(by_time, 0.5);  // a restart at t = 0.5 writes t = 0.5 again, then 0.75
  EXPECT_FALSE(restarted.due(1, 0.45));
  EXPECT_TRUE(restarted.due(2, 0.5));
  EXPECT_FALSE(restarted.due(3, 0.7));
  EXPECT_TRUE(restarted.due(4, 1.3));  // a large step passing several multiples writes once
  EXPECT_FALSE(restarted.due(5, 1.45));
  EXPECT_TRUE(restarted.due(6, 1.5));
  EXPECT_FALSE(io::OutputSchedule(config::OutputConfig{}).enabled());
}

// A field file that fails inside HDF5 (the process may write files 1 KiB short of the whole file) is removed: no
// partial file for ParaView to trip over, none listed in fields.xmf, and the file of the step before stays. HDF5
// 1.10 crashes at exit after such a failure (see Checkpoint.WriteOutOfRoomLeavesNoPartialFile), so from 1.14 on.
TEST(FieldOutput, FailedWriteLeavesNoPartialFile) {
#if H5_VERS_MAJOR == 1 && H5_VERS_MINOR < 14
  GTEST_SKIP() << "HDF5 " << H5_VERS_MAJOR << "." << H5_VERS_MINOR << " crashes at exit after a failed file close";
#endif
  parallel::Context context(MPI_COMM_WORLD);
  for (auto mode : io_test::modes()) {
    const auto run_dir = io_test::scratch_folder(MPI_COMM_WORLD, "field_out_of_room");
    auto deck = io_test::make_deck(3, {8, 6, 4}, {1.0, 1.5, 2.0});
    io_test::use_mode(deck, mode);
    const auto decomp = grid::decompose(io_test::grid_of(deck), MPI_COMM_WORLD);
    const auto shape = fields::local_shape(decomp, 1);
    const auto state = fields::FlowState::allocate(shape);
    io::FieldWriter writer(deck, decomp, shape, context, run_dir);
    const auto kept = writer.write(state, {}, 0.0, 0);
    const auto whole_file = std::filesystem::file_size(kept);
    ASSERT_GT(whole_file, 2048u);
    const std::string message = io_test::error_under_file_size_limit(static_cast<rlim_t>(whole_file - 1024),
                                                                     [&] { writer.write(state, {}, 0.1, 1); });
    const bool collective = mode == io::WriteMode::collective;
    EXPECT_NE(message.find("kB of data; its file system has "), std::string::npos) << collective << ": " << message;
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_FALSE(std::filesystem::exists(run_dir / io::FieldWriter::file_name(1))) << collective;
    EXPECT_TRUE(std::filesystem::exists(kept));
    const std::string series = io::read_text(run_dir / "fields.xmf");
    EXPECT_NE(series.find(io::FieldWriter::file_name(0)), std::string::npos);
    EXPECT_EQ(series.find(io::FieldWriter::file_name(1)), std::string::npos) << series;
    MPI_Barrier(MPI_COMM_WORLD);  // before the next mode's folder replaces this one
  }
}

}  // namespace
