// Restart equals a continuous run: on the same rank count bit for bit (u, v, w, p, time, dt), and from a
// checkpoint written on 2 ranks continued on 4 within the pressure solver's tolerance.
#include "flow_test_support.hpp"
#include "io/collective.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using namespace eddy;

// A small case whose boundaries all matter on restart: inflow on x_low, zero-gradient outflow on x_high (whose
// faces the projection corrects), a moving wall on top, a no-slip floor.
config::Deck channel_deck(const std::filesystem::path& dir, long long steps) {
  config::Deck deck;
  deck.name = "restart_test";
  deck.domain.cells = {16, 8, 1};
  deck.domain.length = {2, 1, 1};
  deck.physics.viscosity = 0.05;
  deck.boundary.faces[0].type = config::BoundaryType::inflow;
  deck.boundary.faces[0].velocity = {1, 0, 0};
  deck.boundary.faces[0].profile = config::InflowProfile::parabolic;
  deck.boundary.faces[1].type = config::BoundaryType::outflow;
  deck.boundary.faces[3].type = config::BoundaryType::moving_wall;
  deck.boundary.faces[3].velocity = {0.5, 0, 0};
  deck.initial.type = config::InitialType::random;
  deck.initial.amplitude = 0.1;
  deck.time.dt = 1e-2;
  deck.time.max_steps = steps;
  deck.pressure.rtol = 1e-12;
  deck.pressure.atol = 1e-14;
  deck.output.directory = dir.string();
  deck.output.interval_steps = 3;
  deck.output.log_interval = 0;
  return deck;
}

std::filesystem::path fresh_folder(MPI_Comm comm, const std::string& name) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto path = std::filesystem::current_path() / ("run_restart_" + name + "_np" + std::to_string(size));
  io::run_on_rank0(comm, [&] { std::filesystem::remove_all(path); });
  return path;
}

struct Final {
  std::array<eddy::testing::GlobalField, 4> fields;
  double time = 0, dt = 0;
  long long step = 0;
};

Final final_state(const time::Simulation& sim) {
  Final f;
  for (int c = 0; c < 4; ++c) f.fields[c] = eddy::testing::gather(sim, c);
  f.time = sim.time();
  f.step = sim.step();
  f.dt = sim.history().empty() ? 0 : sim.history().back().dt;
  return f;
}

Final run_continuous(const std::filesystem::path& dir, long long steps) {
  parallel::Context world(MPI_COMM_WORLD);
  time::Simulation sim(channel_deck(dir, steps), world, {"", true});
  EXPECT_EQ(sim.run(), time::exit_finished);
  return final_state(sim);
}

TEST(Restart, SameRanksIsBitIdentical) {
  const auto continuous = run_continuous(fresh_folder(MPI_COMM_WORLD, "continuous"), 10);
  const auto dir = fresh_folder(MPI_COMM_WORLD, "split");
  parallel::Context world(MPI_COMM_WORLD);
  {
    time::Simulation first(channel_deck(dir, 4), world, {"", true});
    ASSERT_EQ(first.run(), time::exit_finished);
    ASSERT_EQ(first.step(), 4);
  }
  time::Simulation second(channel_deck(dir, 10), world, {"latest", true});
  ASSERT_EQ(second.step(), 4);
  ASSERT_EQ(second.run(), time::exit_finished);
  const auto restarted = final_state(second);
  EXPECT_EQ(restarted.step, continuous.step);
  EXPECT_EQ(restarted.time, continuous.time);
  EXPECT_EQ(restarted.dt, continuous.dt);  // the adaptive growth cap continued from the stored dt
  const char* names[] = {"u", "v", "w", "p"};
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(eddy::testing::max_difference(restarted.fields[c], continuous.fields[c]), 0.0) << names[c];
  }
}

TEST(Restart, TwoToFourRanksAgreesWithinSolverTolerance) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != 4) GTEST_SKIP() << "needs 4 ranks";
  const auto continuous = run_continuous(fresh_folder(MPI_COMM_WORLD, "continuous4"), 10);
  const auto dir = fresh_folder(MPI_COMM_WORLD, "two_to_four");
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
  if (pair != MPI_COMM_NULL) {
    parallel::Context two(pair);
    time::Simulation first(channel_deck(dir, 4), two, {"", true});
    EXPECT_EQ(first.run(), time::exit_finished);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (pair != MPI_COMM_NULL) MPI_Comm_free(&pair);
  parallel::Context world(MPI_COMM_WORLD);
  time::Simulation second(channel_deck(dir, 10), world, {"latest", true});
  ASSERT_EQ(second.run(), time::exit_finished);
  const auto restarted = final_state(second);
  EXPECT_EQ(restarted.step, continuous.step);
  EXPECT_NEAR(restarted.time, continuous.time, 1e-12);
  for (int c = 0; c < 3; ++c) EXPECT_LT(eddy::testing::max_difference(restarted.fields[c], continuous.fields[c]), 1e-9);
}

}  // namespace
