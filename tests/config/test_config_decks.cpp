// Every deck in inputs/ loads, validates and round-trips; defaults come from deck.hpp; derived values are right.
#include "config/embedded_deck.hpp"
#include "config/load.hpp"
#include "config/memory_estimate.hpp"
#include "config/print.hpp"
#include "config_test_helpers.hpp"
#include "grid/global_grid.hpp"

#include <filesystem>

namespace eddy::config {
namespace {

using testing::source_dir;

std::vector<std::string> input_decks() {
  std::vector<std::string> decks;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/inputs")) {
    if (entry.path().extension() == ".yaml") decks.push_back(entry.path().string());
  }
  return decks;
}

TEST(ConfigDecks, EveryInputDeckLoadsAndRoundTrips) {
  const auto decks = input_decks();
  ASSERT_GE(decks.size(), 6u) << "inputs/ holds the six documented decks";
  for (const auto& path : decks) {
    SCOPED_TRACE(path);
    const Deck deck = load(path);
    EXPECT_EQ(deck.source, path);
    EXPECT_EQ(std::filesystem::path(path).stem().string(), deck.name) << "a deck's name matches its file";
    EXPECT_EQ(load_text(to_yaml(deck), deck.source), deck);
  }
}

TEST(ConfigDecks, EmbeddedDefaultIsTheCavityDeck) {
  Deck embedded = load_default();
  const Deck file = load(source_dir() + "/inputs/cavity2d_re100.yaml");
  EXPECT_EQ(embedded.source, embedded_deck_name);
  embedded.source = file.source;
  EXPECT_EQ(embedded, file);
}

TEST(ConfigDecks, CavityDeckResolvesReynoldsAndTwoDimensionalDefaults) {
  const Deck deck = load(source_dir() + "/inputs/cavity2d_re100.yaml");
  EXPECT_EQ(deck.domain.dimensions, 2);
  EXPECT_EQ(deck.domain.cells, (std::array<int, 3>{64, 64, 1}));
  EXPECT_DOUBLE_EQ(deck.physics.viscosity, 1.0 / 100);  // Re = U L / nu, U = 1, L = 1
  EXPECT_DOUBLE_EQ(deck.domain.length[2], 1.0 / 64);    // 2D: one cell in z, as wide as in x
  EXPECT_EQ(deck.boundary.face(1, 1).type, BoundaryType::moving_wall);
  EXPECT_EQ(deck.boundary.face(1, 1).velocity, (std::array<double, 3>{1, 0, 0}));
  EXPECT_EQ(deck.boundary.face(2, 0).type, BoundaryType::periodic);
  EXPECT_EQ(deck.boundary.face(2, 1).type, BoundaryType::periodic);
  EXPECT_TRUE(deck.time.adaptive);
  EXPECT_EQ(deck.output.directory, "runs/cavity2d_re100");
  EXPECT_DOUBLE_EQ(deck.output.interval_time, 1.0);
}

TEST(ConfigDecks, ReynoldsUsesTheLengthOfX) {
  const Deck deck = load_text("domain: {length: [4, 1]}\nphysics: {reynolds: 200}\n", "t");
  EXPECT_DOUBLE_EQ(deck.physics.viscosity, 4.0 / 200);
}

TEST(ConfigDecks, MissingKeysTakeTheDefaultsOfDeckHpp) {
  Deck expected;
  expected.name = "minimal";
  expected.source = "t";
  expected.domain.length[2] = expected.domain.length[0] / expected.domain.cells[0];
  expected.boundary.faces[4].type = BoundaryType::periodic;
  expected.boundary.faces[5].type = BoundaryType::periodic;
  EXPECT_EQ(load_text("name: minimal\n", "t"), expected);
  expected.name = Deck{}.name;
  EXPECT_EQ(load_text("", "t"), expected) << "an empty deck is every default";
}

TEST(ConfigDecks, DefaultFaceAppliesToUnlistedFacesOnly) {
  const Deck deck = load_text(
      "domain: {dimensions: 3, cells: [8, 8, 8]}\n"
      "boundary: {default: {type: free_slip}, y_high: {type: moving_wall, velocity: [1, 0, 0.5]}}\n",
      "t");
  for (int f : {0, 1, 2, 4, 5}) EXPECT_EQ(deck.boundary.faces[f].type, BoundaryType::free_slip) << f;
  EXPECT_EQ(deck.boundary.faces[3].type, BoundaryType::moving_wall);
  EXPECT_EQ(deck.boundary.faces[3].velocity, (std::array<double, 3>{1, 0, 0.5}));
}

TEST(ConfigDecks, TimeStepForms) {
  EXPECT_TRUE(load_text("time: {dt: adaptive}\n", "t").time.adaptive);
  const Deck fixed = load_text("time: {dt: 2.5e-4}\n", "t");
  EXPECT_FALSE(fixed.time.adaptive);
  EXPECT_DOUBLE_EQ(fixed.time.dt, 2.5e-4);
  const Deck first = load_text("time: {dt: {adaptive: true, initial: 1e-5}}\n", "t");
  EXPECT_TRUE(first.time.adaptive);
  EXPECT_DOUBLE_EQ(first.time.dt, 1e-5);
}

TEST(ConfigDecks, GlobalGridFollowsTheDeck) {
  const Deck channel = load(source_dir() + "/inputs/channel2d_poiseuille.yaml");
  const auto grid = grid::global_grid(channel);
  EXPECT_EQ(grid.dim, 2);
  EXPECT_EQ(grid.cells, (Int3{128, 32, 1}));
  EXPECT_DOUBLE_EQ(grid.spacing(0), 4.0 / 128);
  EXPECT_EQ(grid.periodic, (std::array<bool, 3>{false, false, true}));
  const Deck tgv = load(source_dir() + "/inputs/taylor_green3d_re1600.yaml");
  EXPECT_EQ(grid::global_grid(tgv).periodic, (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(grid::global_grid(tgv).origin[2], static_cast<Real>(-M_PI));
}

TEST(ConfigDecks, MemoryEstimateCountsTheListedFields) {
  Deck deck = load_text("domain: {dimensions: 3, cells: [8, 8, 8]}\n", "t");
  // 8^3 cells + 1 ghost per side = 1000 points; halo: 3 axes x (send, recv) x 2 sides x 4 fields x 100 points.
  // State 4 + last good 3 (its pressure kept by the guesses) + tendencies 6; multigrid with red-black smoothing 2 +
  // 3/7, the fused sweep's second field on every level, 1 + 1/7, and the convergence check's partial sums, 3/8.
  const double halo = 3 * 2 * 2 * 4 * 100;
  const double flow_fields = 4 + 3 + 6 + 3;  // and the RK3 stage pressure guesses
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(deck, {8, 8, 8}, 1)),
              (1000 * (flow_fields + 2 + 3.0 / 7 + 1 + 1.0 / 7 + 3.0 / 8) + halo) * sizeof(Real), 1.0);
  // The SSP RK3 keeps no tendency for a later stage: the next stage's velocity alone, three fields fewer.
  Deck ssp = deck;
  ssp.time.scheme = TimeScheme::ssp_rk3;
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(ssp, {8, 8, 8}, 1)),
              (1000 * (flow_fields - 3 + 2 + 3.0 / 7 + 1 + 1.0 / 7 + 3.0 / 8) + halo) * sizeof(Real), 1.0);
  deck.pressure.smoother = SmootherType::chebyshev;
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(deck, {8, 8, 8}, 1)),
              (1000 * (flow_fields + 2 + 3.0 / 7 + 2 * (1 + 1.0 / 7) + 3.0 / 8) + halo) * sizeof(Real), 1.0);
  deck.pressure.solver = PoissonSolverType::cg;
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(deck, {8, 8, 8}, 1)),
              (1000 * (flow_fields + 4) + halo) * sizeof(Real), 1.0);
  // A scalar adds its value, two tendencies and its last good copy; a body the previous stage's pressure, and with
  // bodies the stages solve for pressure increments, without the guesses, so the last good pressure is a copy.
  deck.scalars.resize(1);
  deck.bodies.resize(1);
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(deck, {8, 8, 8}, 1)),
              (1000 * (flow_fields - 3 + 1 + 4 + 4 + 1) + halo) * sizeof(Real), 1.0);
  // Statistics sum u, v, w, p and their 7 products, and per scalar the scalar and its 4 products.
  deck.statistics.enabled = true;
  EXPECT_NEAR(static_cast<double>(estimate_bytes_per_rank(deck, {8, 8, 8}, 1)),
              (1000 * (flow_fields - 3 + 1 + 4 + 4 + 1 + 11 + 5) + halo) * sizeof(Real), 1.0);
  EXPECT_GT(estimate_bytes_per_rank(deck, {8, 8, 8}, 2), estimate_bytes_per_rank(deck, {8, 8, 8}, 1));
  // Rows of 256 values or more are padded to a multiple of 16: 500 and 510 cells with their ghosts both take 512.
  EXPECT_EQ(estimate_bytes_per_rank(deck, {500, 8, 8}, 1), estimate_bytes_per_rank(deck, {510, 8, 8}, 1));
  EXPECT_LT(estimate_bytes_per_rank(deck, {510, 8, 8}, 1), estimate_bytes_per_rank(deck, {512, 8, 8}, 1));
  EXPECT_LT(estimate_bytes_per_rank(deck, {124, 8, 8}, 1), estimate_bytes_per_rank(deck, {126, 8, 8}, 1));
}

}  // namespace
}  // namespace eddy::config
