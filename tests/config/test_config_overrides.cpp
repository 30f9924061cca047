// `--set key.path=value` overrides: applied before validation, in order, and named in every message they cause.
#include "config/load.hpp"
#include "config_test_helpers.hpp"

namespace eddy::config {
namespace {

using testing::load_error;

const char* cavity = "name: c\nphysics: {viscosity: 0.5}\nboundary: {y_high: {type: moving_wall, velocity: [1, 0]}}\n";

TEST(ConfigOverrides, SetValuesListsAndSections) {
  const Deck deck = load_text(cavity, "t",
                              {"domain.cells=[32,16]", "physics.viscosity=0.001", "output.directory=runs/x",
                               "boundary.x_low={type: periodic}", "boundary.x_high=periodic", "time.dt=1e-4"});
  EXPECT_EQ(deck.domain.cells, (std::array<int, 3>{32, 16, 1}));
  EXPECT_DOUBLE_EQ(deck.physics.viscosity, 0.001);
  EXPECT_EQ(deck.output.directory, "runs/x");
  EXPECT_EQ(deck.boundary.face(0, 0).type, BoundaryType::periodic);
  EXPECT_EQ(deck.boundary.face(0, 1).type, BoundaryType::periodic);
  EXPECT_EQ(deck.boundary.face(1, 1).type, BoundaryType::moving_wall) << "the rest of the section is kept";
  EXPECT_FALSE(deck.time.adaptive);
  EXPECT_DOUBLE_EQ(deck.time.dt, 1e-4);
}

TEST(ConfigOverrides, LastOverrideWins) {
  EXPECT_DOUBLE_EQ(load_text(cavity, "t", {"time.cfl=0.3", "time.cfl=0.4"}).time.cfl, 0.4);
}

TEST(ConfigOverrides, ReynoldsReplacesAViscosityGivenInTheDeck) {
  EXPECT_DOUBLE_EQ(load_text(cavity, "t", {"physics.reynolds=100"}).physics.viscosity, 0.01);
  EXPECT_DOUBLE_EQ(load_text("physics: {reynolds: 10}\n", "t", {"physics.viscosity=0.2"}).physics.viscosity, 0.2);
}

TEST(ConfigOverrides, UnknownKeyNamesTheOverride) {
  const auto message = load_error(cavity, {"physics.viscosty=1"});
  EXPECT_CONTAINS(message, "--set physics.viscosty=1: unknown key 'viscosty' in section 'physics'");
  EXPECT_CONTAINS(message, "did you mean 'viscosity'?");
  EXPECT_CONTAINS(load_error(cavity, {"outptu.directory=x"}),
                  "--set outptu.directory=x: unknown key 'outptu' at the top level; did you mean 'output'?");
}

TEST(ConfigOverrides, BadValuesNameTheOverrideInsteadOfALine) {
  EXPECT_CONTAINS(load_error(cavity, {"physics.viscosity=-1"}),
                  "physics.viscosity (--set physics.viscosity=-1): got -1; allowed: >= 0");
  EXPECT_CONTAINS(load_error(cavity, {"boundary.x_low.type=periodic"}),
                  "boundary.x_low.type (--set boundary.x_low.type=periodic): periodic on x_low");
  EXPECT_CONTAINS(load_error(cavity, {"domain.cells=[8,8,8]"}),
                  "domain.cells (--set domain.cells=[8,8,8]): expected a list of 2 integers");
}

TEST(ConfigOverrides, MalformedOverrides) {
  EXPECT_CONTAINS(load_error(cavity, {"physics.viscosity"}), "--set physics.viscosity: expected key.path=value");
  EXPECT_CONTAINS(load_error(cavity, {"physics.viscosity="}), "no value given");
  EXPECT_CONTAINS(load_error(cavity, {"physics.viscosity.x=1"}), "'physics.viscosity' is a value, not a section");
  EXPECT_CONTAINS(load_error(cavity, {"domain.cells=[1,"}), "is not valid YAML");
}

}  // namespace
}  // namespace eddy::config
