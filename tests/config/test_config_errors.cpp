// Every class of bad input fails with one message naming the key path, its line, the value and what is allowed.
#include "config/load.hpp"
#include "config/validate.hpp"
#include "config_test_helpers.hpp"

namespace eddy::config {
namespace {

using testing::load_error;

TEST(ConfigErrors, UnknownKeySuggestsTheNearestKey) {
  const auto message = load_error("name: a\nphysics:\n  viscosty: 0.1\n");
  EXPECT_CONTAINS(message, "physics.viscosty (deck.yaml, line 3)");
  EXPECT_CONTAINS(message, "unknown key 'viscosty' in section 'physics'; did you mean 'viscosity'?");
  EXPECT_CONTAINS(message, "Allowed keys: viscosity, reynolds, density");
}

TEST(ConfigErrors, UnknownSectionAndFarOffKey) {
  EXPECT_CONTAINS(load_error("phyiscs: {viscosity: 1}\n"), "did you mean 'physics'?");
  const auto message = load_error("time:\n  end_time: 1\n  zzzzzzzzzz: 3\n");
  EXPECT_CONTAINS(message, "time.zzzzzzzzzz (deck.yaml, line 3): unknown key");
  EXPECT_LACKS(message, "did you mean");
}

TEST(ConfigErrors, WrongTypes) {
  auto message = load_error("domain:\n  cells: [64, abc]\n");
  EXPECT_CONTAINS(message, "domain.cells[1] (deck.yaml, line 2)");
  EXPECT_CONTAINS(message, "expected an integer, got 'abc'");
  message = load_error("domain:\n  cells: 64\n");
  EXPECT_CONTAINS(message, "domain.cells (deck.yaml, line 2): expected a list of 2 integers");
  EXPECT_CONTAINS(load_error("output: {overwrite: maybe}\n"),
                  "output.overwrite (deck.yaml, line 1): expected true or false, got 'maybe'");
  EXPECT_CONTAINS(load_error("physics: {viscosity: [1]}\n"),
                  "physics.viscosity (deck.yaml, line 1): expected a number");
  EXPECT_CONTAINS(load_error("time: {dt: fast}\n"),
                  "time.dt (deck.yaml, line 1): expected 'adaptive', a number, or {adaptive: true");
  EXPECT_CONTAINS(load_error("domain: 3\n"), "domain (deck.yaml, line 1): expected a section of keys, got '3'");
}

TEST(ConfigErrors, UnknownEnumValueListsTheAllowedValues) {
  const auto message = load_error(
      "boundary:\n  x_low: {type: no_slip}\n  x_high: {type: no_slip}\n  y_low: {type: no_slip}\n"
      "  y_high: {type: moving_wal, velocity: [1, 0]}\n");
  EXPECT_CONTAINS(message, "boundary.y_high.type (deck.yaml, line 5): got 'moving_wal'");
  EXPECT_CONTAINS(message, "allowed: periodic, no_slip, moving_wall, free_slip, inflow, outflow");
  EXPECT_CONTAINS(message, "did you mean 'moving_wall'?");
  EXPECT_CONTAINS(load_error("pressure:\n  solver: gmres\n"),
                  "pressure.solver (deck.yaml, line 2): got 'gmres'; allowed: multigrid, mg_cg, cg, jacobi");
  EXPECT_CONTAINS(
      load_error("parallel:\n  reduction_backend: peer\n"),
      "parallel.reduction_backend (deck.yaml, line 2): 'peer' moves halo data only; allowed here: auto, mpi, "
      "nccl");
}

TEST(ConfigErrors, OutOfRangeValues) {
  EXPECT_CONTAINS(load_error("domain:\n  cells: [0, 64]\n"),
                  "domain.cells[0] (deck.yaml, line 2): got 0; allowed: an integer >= 1");
  EXPECT_CONTAINS(load_error("name: a\nphysics:\n  viscosity: -0.01\n"),
                  "physics.viscosity (deck.yaml, line 3): got -0.01; allowed: >= 0");
  EXPECT_CONTAINS(load_error("time: {cfl: 2}\n"), "time.cfl (deck.yaml, line 1): got 2; allowed: 0 < cfl <= 1.5");
  for (const char* planes : {"0", "3", "2048"}) {
    EXPECT_CONTAINS(load_error(std::string("tuning: {pair_planes: ") + planes + "}\n"),
                    std::string("tuning.pair_planes (deck.yaml, line 1): got ") + planes +
                        "; allowed: an even number from 2 to 1024");
  }
  EXPECT_CONTAINS(load_error("tuning:\n  hdf5_writes: fast\n"),
                  "tuning.hdf5_writes (deck.yaml, line 2): got 'fast'; allowed: auto, collective, token_passing");
  EXPECT_CONTAINS(load_error("time: {cfl: 0}\n"), "time.cfl (deck.yaml, line 1): got 0");
  EXPECT_CONTAINS(load_error("time: {dt: -1}\n"), "time.dt (deck.yaml, line 1): got -1; allowed: > 0");
  EXPECT_CONTAINS(load_error("pressure: {rtol: 2}\n"), "pressure.rtol (deck.yaml, line 1): got 2");
  EXPECT_CONTAINS(load_error("pressure: {intermediate_rtol: -0.1}\n"),
                  "pressure.intermediate_rtol (deck.yaml, line 1): got -0.1; allowed: 0 <= intermediate_rtol < 1");
  EXPECT_CONTAINS(load_error("domain: {dimensions: 4}\n"),
                  "domain.dimensions (deck.yaml, line 1): got 4; allowed: 2, 3");
  EXPECT_CONTAINS(load_error("name: my case\n"), "name (deck.yaml, line 1): got 'my case'; allowed: letters");
  EXPECT_CONTAINS(load_error("output: {fields: [velocty]}\n"),
                  "output.fields[0] (deck.yaml, line 1): got 'velocty'; allowed: velocity, pressure");
  EXPECT_CONTAINS(load_error("parallel: {process_grid: [128, 1]}\n"),
                  "parallel.process_grid[0] (deck.yaml, line 1): got 128; allowed: at most domain.cells[0] = 64");
}

TEST(ConfigErrors, PeriodicOnOneFaceOfAnAxis) {
  const auto message = load_error("boundary:\n  x_low: {type: periodic}\n  x_high: {type: no_slip}\n");
  EXPECT_CONTAINS(message, "boundary.x_low.type (deck.yaml, line 2)");
  EXPECT_CONTAINS(message, "periodic on both faces or on neither");
}

TEST(ConfigErrors, ListLengthMustMatchTheDimensions) {
  EXPECT_CONTAINS(load_error("domain:\n  dimensions: 3\n  cells: [8, 8]\n"),
                  "domain.cells (deck.yaml, line 3): expected a list of 3 integers (one per axis in 3D), got "
                  "[8, 8] (domain.dimensions is 3)");
  EXPECT_CONTAINS(load_error("domain:\n  length: [1, 1, 1]\n"),
                  "domain.length (deck.yaml, line 2): expected a list of 2 numbers");
  EXPECT_CONTAINS(load_error("boundary:\n  y_high: {type: moving_wall, velocity: [1, 0, 0]}\n"),
                  "boundary.y_high.velocity (deck.yaml, line 2): expected a list of 2 numbers");
}

TEST(ConfigErrors, ZFacesOnlyInThreeDimensions) {
  EXPECT_CONTAINS(load_error("boundary:\n  x_low: {type: no_slip}\n  z_low: {type: no_slip}\n"),
                  "boundary.z_low (deck.yaml, line 3): z faces exist only in 3D");
}

TEST(ConfigErrors, FaceKeysMustFitTheFaceType) {
  EXPECT_CONTAINS(load_error("boundary:\n  y_high: {type: moving_wall}\n"),
                  "boundary.y_high.velocity (deck.yaml, line 2): missing: a moving_wall face needs a velocity");
  EXPECT_CONTAINS(load_error("boundary:\n  y_high: moving_wall\n"), "needs a velocity");
  EXPECT_CONTAINS(load_error("boundary:\n  y_low: {type: no_slip, velocity: [1, 0]}\n"),
                  "boundary.y_low.velocity (deck.yaml, line 2): applies only to moving_wall and inflow");
  EXPECT_CONTAINS(load_error("boundary:\n  x_high: {type: no_slip, kind: convective}\n"),
                  "boundary.x_high.kind (deck.yaml, line 2): applies only to outflow faces");
  EXPECT_CONTAINS(load_error("boundary:\n  x_high: {velocity: [1, 0]}\n"),
                  "boundary.x_high.type (deck.yaml, line 2): missing; allowed: periodic");
  EXPECT_CONTAINS(load_error("boundary:\n  y_high: {type: moving_wall, velocity: [1, 0.5]}\n"),
                  "boundary.y_high.velocity[1] (deck.yaml, line 2): got 0.5; allowed: 0 (a wall moves");
}

TEST(ConfigErrors, InflowNeedsAnOutflowAndMustEnter) {
  EXPECT_CONTAINS(load_error("boundary:\n  x_low: {type: inflow, velocity: [1, 0]}\n"),
                  "boundary (deck.yaml, line 1): an inflow face needs an outflow face");
  EXPECT_CONTAINS(load_error("boundary:\n  x_low: {type: outflow}\n  x_high: {type: inflow, velocity: [1, 0]}\n"),
                  "boundary.x_high.velocity[0] (deck.yaml, line 3): got 1; allowed: < 0");
}

TEST(ConfigErrors, ViscosityAndReynoldsTogether) {
  EXPECT_CONTAINS(load_error("physics:\n  viscosity: 0.1\n  reynolds: 10\n"),
                  "physics.reynolds (deck.yaml, line 3): give either physics.viscosity or physics.reynolds");
}

TEST(ConfigErrors, DuplicateKey) {
  EXPECT_CONTAINS(load_error("time:\n  cfl: 0.5\n  cfl: 0.7\n"),
                  "time.cfl (deck.yaml, line 3): the key 'cfl' is given twice");
}

TEST(ConfigErrors, MalformedYamlAndNonMapDecks) {
  const auto message = load_error("name: a\ndomain:\n  cells: [64, 64\nphysics: {viscosity: 1}\n");
  EXPECT_CONTAINS(message, "deck.yaml, line ");
  EXPECT_CONTAINS(message, "malformed YAML");
  EXPECT_CONTAINS(load_error("- a\n- b\n"), "deck.yaml: a deck is a map of sections");
}

TEST(ConfigErrors, MissingFile) {
  try {
    load("/nonexistent/eddy/deck.yaml");
    ADD_FAILURE() << "a missing file must fail";
  } catch (const Error& e) {
    EXPECT_CONTAINS(std::string(e.what()), "cannot open deck '/nonexistent/eddy/deck.yaml'");
  }
}

TEST(ConfigErrors, DecksBuiltInCodeAreValidatedWithoutLines) {
  Deck deck;
  EXPECT_NO_THROW(validate(deck));
  deck.time.cfl = 0;
  try {
    validate(deck);
    ADD_FAILURE() << "cfl = 0 must fail";
  } catch (const Error& e) {
    EXPECT_CONTAINS(std::string(e.what()), "time.cfl (<deck>): got 0");
  }
}

TEST(ConfigErrors, DriveAndStatistics) {
  const std::string channel = "boundary: {x_low: periodic, x_high: periodic}\n";
  EXPECT_CONTAINS(load_error(channel + "physics: {drive: {axis: y, bulk_velocity: 1}}\n"),
                  "physics.drive.axis (deck.yaml, line 2): got 'y', whose faces are no_slip; allowed: a periodic axis "
                  "(x)");
  EXPECT_CONTAINS(load_error(channel + "physics: {drive: {axis: x}}\n"),
                  "physics.drive (deck.yaml, line 2): give one of bulk_velocity (a constant flow rate) and "
                  "pressure_gradient");
  EXPECT_CONTAINS(load_error(channel + "physics: {drive: {bulk_velocity: 1}}\n"),
                  "physics.drive.axis (deck.yaml, line 2): missing: the periodic axis the flow is driven along");
  EXPECT_CONTAINS(load_error(channel + "physics: {drive: {axis: x, bulk_velocity: 1, speed: 2}}\n"),
                  "unknown key 'speed' in section 'physics.drive'");
  EXPECT_CONTAINS(load_error("statistics: {average_over: [x, x]}\n"),
                  "statistics.average_over[1] (deck.yaml, line 1): the axis is listed twice");
  EXPECT_CONTAINS(load_error("domain: {dimensions: 3}\nstatistics: {average_over: [x]}\n"),
                  "statistics.average_over (deck.yaml, line 2): got 1 of 3 axes; allowed: none (3D means only) or "
                  "all axes but one");
  EXPECT_CONTAINS(load_error("statistics: {interval_steps: 0}\n"),
                  "statistics.interval_steps (deck.yaml, line 1): got 0; allowed: an integer >= 1");
  EXPECT_CONTAINS(load_error("initial: {noise: -1}\n"), "initial.noise (deck.yaml, line 1): got -1; allowed: >= 0");
  EXPECT_CONTAINS(load_error("planes: [{name: p, axis: y, at: 5, interval_time: 1}]\n"),
                  "planes[0].at (deck.yaml, line 1): got 5; allowed: a coordinate from 0 to 1 (the domain along y)");
  EXPECT_CONTAINS(load_error("planes: [{name: p, axis: z, at: 0}]\n"),
                  "planes[0].axis (deck.yaml, line 1): got 'z'; allowed: x, y (domain.dimensions is 2)");
  EXPECT_CONTAINS(load_error("planes: [{name: p, axis: x, at: 0.5}]\n"),
                  "planes[0].interval_time (deck.yaml, line 1): got 0; allowed: > 0 (0 follows the field output");
}

TEST(ConfigErrors, StretchingNamesWhatIsAllowed) {
  const std::string domain = "domain:\n  cells: [16, 16]\n  stretching:\n";
  const std::string clustered = domain + "    y: {cluster: both, factor: 2}\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {domain + "    y: {cluster: middle, factor: 2}\n", "allowed: both, low, high"},
      {domain + "    y: {cluster: both}\n",
       "a clustering needs one of factor (the tanh stretching parameter) and first_cell"},
      {domain + "    y: {cluster: both, first_cell: 0.1}\n",
       "domain.stretching.y.first_cell (deck.yaml, line 4): got 0.1; allowed: a width in (0, 0.0625)"},
      {domain + "    y: {faces: [0, 0.5, 1]}\n",
       "got 3 coordinates; allowed: domain.cells[1] + 1 = 17 face coordinates"},
      {domain + "    z: {cluster: low, factor: 1}\n", "a 2D domain has only x and y"},
      {domain + "    y: {file: no_such_file.txt}\n", "cannot read 'no_such_file.txt'"},
      {clustered + "parallel:\n  process_grid: [1, 2]\n", "the pressure solver's lines along it stay on one rank"},
      {clustered + "pressure:\n  solver: cg\n",
       "pressure.solver (deck.yaml, line 6): got cg; allowed: multigrid on a stretched grid"},
      {clustered + "boundary:\n  x_low: {type: inflow, velocity: [1, 0], profile: parabolic}\n  x_high: outflow\n",
       "boundary.x_low.profile (deck.yaml, line 6): a parabolic profile across a stretched axis"},
      {clustered + "statistics: {start_time: 0, average_over: [y]}\n",
       "statistics.average_over (deck.yaml, line 5): the profiles average over homogeneous axes, which need a uniform"},
  };
  for (const auto& [yaml, expected] : cases) EXPECT_CONTAINS(load_error(yaml), expected);
}

}  // namespace
}  // namespace eddy::config
