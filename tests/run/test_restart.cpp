// Restart equals a continuous run: on the same rank count bit for bit (u, v, w, p, every scalar, time, dt), and from
// a checkpoint written on 2 ranks continued on 4 within the pressure solver's tolerance. Two cases: a channel with
// every kind of open boundary, and the heated cavity of inputs/ (buoyancy-driven, with a second scalar, a dye, beside
// the temperature). A deck whose scalars differ from the checkpoint's is refused by name.
#include "config/load.hpp"
#include "core/error.hpp"
#include "flow_test_support.hpp"
#include "io/collective.hpp"
#include "io/hdf5_file.hpp"
#include "physics/coupled_physics.hpp"
#include "physics/flow_statistics.hpp"
#include "run/run_case.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace eddy;

// A 2 x 1 box of 16 x 8 cells, `steps` steps of 0.01, the pressure solved tightly, output into `dir`: what every
// channel case below shares.
config::Deck small_box(const std::string& name, const std::filesystem::path& dir, long long steps) {
  config::Deck deck;
  deck.name = name;
  deck.domain.cells = {16, 8, 1};
  deck.domain.length = {2, 1, 1};
  deck.time.dt = 1e-2;
  deck.time.max_steps = steps;
  deck.pressure.rtol = 1e-12;
  deck.pressure.atol = 1e-14;
  deck.output.directory = dir.string();
  deck.output.log_interval = 0;
  return deck;
}

// A small case whose boundaries all matter on restart: inflow on x_low, zero-gradient outflow on x_high (whose
// faces the projection corrects), a moving wall on top, a no-slip floor.
config::Deck channel_deck(const std::filesystem::path& dir, long long steps) {
  config::Deck deck = small_box("restart_test", dir, steps);
  deck.physics.viscosity = 0.05;
  deck.boundary.faces[0].type = config::BoundaryType::inflow;
  deck.boundary.faces[0].velocity = {1, 0, 0};
  deck.boundary.faces[0].profile = config::InflowProfile::parabolic;
  deck.boundary.faces[1].type = config::BoundaryType::outflow;
  deck.boundary.faces[3].type = config::BoundaryType::moving_wall;
  deck.boundary.faces[3].velocity = {0.5, 0, 0};
  deck.initial.type = config::InitialType::random;
  deck.initial.amplitude = 0.1;
  deck.output.interval_steps = 3;
  return deck;
}

// A periodic channel held at a constant flow rate, with running averages from its third step on: the averages and
// their window continue across the restart.
config::Deck statistics_channel_deck(const std::filesystem::path& dir, long long steps) {
  config::Deck deck = small_box("restart_statistics", dir, steps);
  deck.physics.viscosity = 0.01;
  deck.physics.drive = {config::DriveType::flow_rate, 0, 1.0};
  for (int side = 0; side < 2; ++side) deck.boundary.faces[side].type = config::BoundaryType::periodic;
  deck.initial.type = config::InitialType::uniform;
  deck.initial.velocity = {1, 0, 0};
  deck.initial.noise = 0.2;
  deck.statistics.enabled = true;
  deck.statistics.start_time = 0.025;
  deck.statistics.average_over = {true, false, false};
  return deck;
}

// The channel under the SSP RK3 with a convective outflow: its stages blend in the step's start, its first stage's
// pressure guess extrapolates from the kept pressures of the step before.
config::Deck ssp_channel_deck(const std::filesystem::path& dir, long long steps) {
  config::Deck deck = channel_deck(dir, steps);
  deck.time.scheme = config::TimeScheme::ssp_rk3;
  deck.boundary.faces[1].outflow = config::OutflowType::convective;
  return deck;
}

// The repository root (ctest sets EDDY_SOURCE_DIR).
std::string source_dir() {
  const char* dir = std::getenv("EDDY_SOURCE_DIR");
  return dir ? dir : ".";
}

// inputs/heated_cavity2d_ra1e4.yaml on 16 x 16 cells with a tight pressure solve, plus a dye that starts random
// (nothing smooth to rebuild it from) and enters through a flux on the hot wall.
config::Deck heated_cavity_deck(const std::filesystem::path& dir, long long steps) {
  config::Deck deck =
      config::load(source_dir() + "/inputs/heated_cavity2d_ra1e4.yaml",
                   {"domain.cells=[16, 16]", "time.max_steps=" + std::to_string(steps), "pressure.rtol=1.0e-12",
                    "pressure.atol=1.0e-14", "output.directory=" + dir.string(), "output.interval_time=0.2"});
  deck.output.log_interval = 0;
  config::ScalarConfig dye = deck.scalars.at(0);
  dye.name = "dye";
  dye.diffusivity *= 0.5;
  dye.initial = {config::ScalarInitialType::random, 0.5, 1, 0, 0, 0.5, 7};
  dye.boundary[0] = {config::ScalarBoundaryType::flux, 0.3, ""};
  dye.boundary[1] = {config::ScalarBoundaryType::adiabatic, 0, ""};
  deck.scalars.push_back(dye);
  return deck;
}

using DeckMaker = std::function<config::Deck(const std::filesystem::path&, long long)>;

std::filesystem::path fresh_folder(MPI_Comm comm, const std::string& name) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto path = std::filesystem::current_path() / ("run_restart_" + name + "_np" + std::to_string(size));
  io::run_on_rank0(comm, [&] { std::filesystem::remove_all(path); });
  return path;
}

struct Final {
  std::array<eddy::testing::GlobalField, 4> fields;
  std::vector<eddy::testing::GlobalField> scalars;
  double time = 0, dt = 0;
  long long step = 0;
  std::vector<std::vector<double>> profiles;  // the statistics' profiles, where the deck has them
  physics::AveragingWindow window;
};

Final final_state(const time::Simulation& sim) {
  Final f;
  for (int c = 0; c < 4; ++c) f.fields[c] = eddy::testing::gather(sim, c);
  for (const auto& scalar : sim.physics().scalar_fields()) {
    f.scalars.push_back(eddy::testing::gather(scalar.field, sim.decomposition(), sim.state().shape.ghost));
  }
  f.time = sim.time();
  f.step = sim.step();
  f.dt = sim.history().empty() ? 0 : sim.history().back().dt;
  if (sim.statistics().enabled()) {
    f.profiles = sim.statistics().profiles(sim.decomposition().comm).values;
    f.window = sim.statistics().window();
  }
  return f;
}

Final run_continuous(DeckMaker make_deck, const std::filesystem::path& dir, long long steps) {
  parallel::Context world(MPI_COMM_WORLD);
  time::Simulation sim(make_deck(dir, steps), world, {"", true});
  EXPECT_EQ(run::run_case(sim), run::exit_finished);
  return final_state(sim);
}

// Runs 4 steps, restarts from the last checkpoint and runs to step 10 on the same ranks; compares with 10 steps.
void expect_bit_identical_restart(DeckMaker make_deck, const std::string& name) {
  const auto continuous = run_continuous(make_deck, fresh_folder(MPI_COMM_WORLD, name + "_continuous"), 10);
  const auto dir = fresh_folder(MPI_COMM_WORLD, name + "_split");
  parallel::Context world(MPI_COMM_WORLD);
  {
    time::Simulation first(make_deck(dir, 4), world, {"", true});
    ASSERT_EQ(run::run_case(first), run::exit_finished);
    ASSERT_EQ(first.step(), 4);
  }
  time::Simulation second(make_deck(dir, 10), world, {"latest", true});
  ASSERT_EQ(second.step(), 4);
  ASSERT_EQ(run::run_case(second), run::exit_finished);
  const auto restarted = final_state(second);
  EXPECT_EQ(restarted.step, continuous.step);
  EXPECT_EQ(restarted.time, continuous.time);
  EXPECT_EQ(restarted.dt, continuous.dt);  // the adaptive growth cap continued from the stored dt
  const char* names[] = {"u", "v", "w", "p"};
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(eddy::testing::max_difference(restarted.fields[c], continuous.fields[c]), 0.0) << names[c];
  }
  ASSERT_EQ(restarted.scalars.size(), continuous.scalars.size());
  const auto scalars = second.physics().scalar_fields();
  for (std::size_t n = 0; n < scalars.size(); ++n) {
    EXPECT_EQ(eddy::testing::max_difference(restarted.scalars[n], continuous.scalars[n]), 0.0) << scalars[n].name;
  }
  EXPECT_EQ(restarted.profiles, continuous.profiles);
  EXPECT_EQ(restarted.window.samples, continuous.window.samples);
  EXPECT_EQ(restarted.window.start, continuous.window.start);
  EXPECT_EQ(restarted.window.weight, continuous.window.weight);
}

// Runs 4 steps on ranks 0 and 1, continues to step 10 on all 4; compares with 10 steps on 4 ranks.
void expect_restart_on_other_ranks(DeckMaker make_deck, const std::string& name) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto continuous = run_continuous(make_deck, fresh_folder(MPI_COMM_WORLD, name + "_continuous4"), 10);
  const auto dir = fresh_folder(MPI_COMM_WORLD, name + "_two_to_four");
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
  if (pair != MPI_COMM_NULL) {
    parallel::Context two(pair);
    time::Simulation first(make_deck(dir, 4), two, {"", true});
    EXPECT_EQ(run::run_case(first), run::exit_finished);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (pair != MPI_COMM_NULL) MPI_Comm_free(&pair);
  parallel::Context world(MPI_COMM_WORLD);
  time::Simulation second(make_deck(dir, 10), world, {"latest", true});
  ASSERT_EQ(run::run_case(second), run::exit_finished);
  const auto restarted = final_state(second);
  EXPECT_EQ(restarted.step, continuous.step);
  EXPECT_NEAR(restarted.time, continuous.time, 1e-12);
  for (int c = 0; c < 3; ++c) EXPECT_LT(eddy::testing::max_difference(restarted.fields[c], continuous.fields[c]), 1e-9);
  ASSERT_EQ(restarted.scalars.size(), continuous.scalars.size());
  for (std::size_t n = 0; n < restarted.scalars.size(); ++n) {
    EXPECT_LT(eddy::testing::max_difference(restarted.scalars[n], continuous.scalars[n]), 1e-9) << n;
  }
  ASSERT_EQ(restarted.profiles.size(), continuous.profiles.size());
  for (std::size_t c = 0; c < restarted.profiles.size(); ++c) {
    for (std::size_t m = 0; m < restarted.profiles[c].size(); ++m) {
      EXPECT_NEAR(restarted.profiles[c][m], continuous.profiles[c][m], 1e-9) << c << " " << m;
    }
  }
  EXPECT_EQ(restarted.window.samples, continuous.window.samples);
}

bool four_ranks() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size == 4;
}

TEST(Restart, SameRanksIsBitIdentical) { expect_bit_identical_restart(channel_deck, "channel"); }

TEST(Restart, SameRanksIsBitIdenticalUnderTheSspRk3) { expect_bit_identical_restart(ssp_channel_deck, "ssp_channel"); }

TEST(Restart, SameRanksIsBitIdenticalWithScalars) { expect_bit_identical_restart(heated_cavity_deck, "cavity"); }

TEST(Restart, SameRanksIsBitIdenticalWithStatistics) {
  expect_bit_identical_restart(statistics_channel_deck, "statistics");
}

TEST(Restart, StatisticsFilesHoldTheWindow) {
  const auto dir = fresh_folder(MPI_COMM_WORLD, "statistics_files");
  const auto result = run_continuous(statistics_channel_deck, dir, 6);
  ASSERT_EQ(result.profiles.size(), 7u);  // mean_u, mean_v, mean_p, uu, vv, uv, pp
  const io::H5Reader profiles(dir / "statistics" / "profiles_000006.h5");
  EXPECT_EQ(profiles.read_integer("samples"), result.window.samples);
  EXPECT_EQ(profiles.read_double("start_time"), result.window.start);
  std::vector<double> uu(8);
  profiles.read_block("uu", {0}, {8}, uu.data());
  EXPECT_EQ(uu, result.profiles[3]);
  const io::H5Reader means(dir / "statistics" / "means_000006.h5");
  EXPECT_TRUE(means.has_dataset("uv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "statistics" / "profiles_000006.csv"));
}

TEST(Restart, TwoToFourRanksWithStatisticsAgreesWithinSolverTolerance) {
  if (!four_ranks()) GTEST_SKIP() << "needs 4 ranks";
  expect_restart_on_other_ranks(statistics_channel_deck, "statistics");
}

TEST(Restart, TwoToFourRanksAgreesWithinSolverTolerance) {
  if (!four_ranks()) GTEST_SKIP() << "needs 4 ranks";
  expect_restart_on_other_ranks(channel_deck, "channel");
}

TEST(Restart, TwoToFourRanksWithScalarsAgreesWithinSolverTolerance) {
  if (!four_ranks()) GTEST_SKIP() << "needs 4 ranks";
  expect_restart_on_other_ranks(heated_cavity_deck, "cavity");
}

// Every deck of inputs/ (bodies and scalars included) on a coarser grid, a tenth of its cells per axis and at least
// eight, with a tight pressure solve.
config::Deck coarse_input_deck(const std::filesystem::path& deck_file, const std::filesystem::path& dir,
                               long long steps) {
  config::Deck deck = config::load(
      deck_file.string(), {"time.max_steps=" + std::to_string(steps), "pressure.rtol=1.0e-12", "pressure.atol=1.0e-14",
                           "output.directory=" + dir.string(), "output.interval_steps=3"});
  for (int a = 0; a < deck.domain.dimensions; ++a)
    deck.domain.cells[a] = std::max(8, deck.domain.cells[a] / 10 / 2 * 2);
  deck.output.log_interval = 0;
  return deck;
}

TEST(Restart, EveryDeckOfInputsIsBitIdentical) {
  std::vector<std::filesystem::path> decks;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/inputs")) {
    if (entry.path().extension() == ".yaml") decks.push_back(entry.path());
  }
  std::sort(decks.begin(), decks.end());
  ASSERT_GE(decks.size(), 10u);
  for (const auto& file : decks) {
    SCOPED_TRACE(file.filename().string());
    expect_bit_identical_restart(
        [&](const std::filesystem::path& dir, long long steps) { return coarse_input_deck(file, dir, steps); },
        "input_" + file.stem().string());
  }
}

// A deck without the dye (or with a scalar the checkpoint lacks) cannot continue the heated cavity's checkpoint.
TEST(Restart, RefusesCheckpointWithOtherScalars) {
  const auto dir = fresh_folder(MPI_COMM_WORLD, "other_scalars");
  parallel::Context world(MPI_COMM_WORLD);
  {
    time::Simulation first(heated_cavity_deck(dir, 2), world, {"", true});
    ASSERT_EQ(run::run_case(first), run::exit_finished);
  }
  const auto restart_error = [&](const config::Deck& deck) -> std::string {
    try {
      time::Simulation second(deck, world, {"latest", true});
    } catch (const Error& error) {
      return error.what();
    }
    return "";
  };
  auto without_dye = heated_cavity_deck(dir, 4);
  without_dye.scalars.pop_back();
  auto message = restart_error(without_dye);
  EXPECT_NE(message.find("checkpoint_000002.h5' holds scalar 'dye', which this deck does not transport"),
            std::string::npos)
      << message;
  auto renamed = heated_cavity_deck(dir, 4);
  renamed.scalars.back().name = "salt";
  message = restart_error(renamed);
  EXPECT_NE(message.find("checkpoint_000002.h5' holds no scalar 'salt'"), std::string::npos) << message;
  EXPECT_EQ(restart_error(heated_cavity_deck(dir, 4)), "");
}

}  // namespace
