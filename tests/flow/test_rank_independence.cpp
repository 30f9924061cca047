// The same deck on 1, 2 and 4 ranks gives the same fields: every rank count is compared with a run of rank 0 alone.
#include "config/load.hpp"
#include "flow_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

void expect_same_fields_as_one_rank(const eddy::config::Deck& deck, long long steps) {
  eddy::parallel::Context world;
  eddy::time::Simulation distributed(deck, world, {"", true});
  distributed.advance(steps);
  std::vector<eddy::testing::GlobalField> fields;
  for (int c = 0; c < 4; ++c) fields.push_back(eddy::testing::gather(distributed, c));
  double difference[4] = {0, 0, 0, 0};
  if (world.rank() == 0) {
    eddy::parallel::Context alone(MPI_COMM_SELF);
    eddy::time::Simulation serial(deck, alone, {"", true});
    serial.advance(steps);
    for (int c = 0; c < 4; ++c) {
      difference[c] = eddy::testing::max_difference(eddy::testing::gather(serial, c), fields[c]);
    }
    EXPECT_EQ(serial.step(), distributed.step());
    EXPECT_DOUBLE_EQ(serial.time(), distributed.time());
  }
  MPI_Bcast(difference, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_LE(difference[0], 1e-10) << "u";
  EXPECT_LE(difference[1], 1e-10) << "v";
  EXPECT_LE(difference[2], 1e-10) << "w";
  EXPECT_LE(difference[3], 1e-8) << "p";
}

TEST(RankIndependence, LidDrivenCavity2D) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(2, 16);
  deck.domain.cells = {16, 12, 1};
  deck.domain.length = {1.0, 0.75, 1.0};
  for (auto& face : deck.boundary.faces) face.type = eddy::config::BoundaryType::no_slip;
  deck.boundary.faces[5].type = deck.boundary.faces[4].type = eddy::config::BoundaryType::periodic;
  deck.boundary.faces[3].type = eddy::config::BoundaryType::moving_wall;
  deck.boundary.faces[3].velocity = {1, 0, 0};
  deck.physics.viscosity = 0.01;
  expect_same_fields_as_one_rank(deck, 10);
}

// Rayleigh-Benard convection from inputs/ (x periodic, buoyancy: the momentum's stored tendency) on a coarse grid:
// with several ranks along y, each rank wraps x onto itself, and the stage's ghost exchange must refresh every
// component's x images for the correction that follows.
TEST(RankIndependence, PeriodicConvectionWithBuoyancy) {
  const char* source = std::getenv("EDDY_SOURCE_DIR");
  eddy::config::Deck deck =
      eddy::config::load(std::string(source ? source : ".") + "/inputs/rayleigh_benard2d_ra1e4.yaml",
                         {"domain.cells=[16, 8]", "pressure.rtol=1.0e-12", "pressure.atol=1.0e-14"});
  expect_same_fields_as_one_rank(deck, 10);
}

// A 3D channel: parabolic inflow, convective outflow, a no-slip and a free-slip wall, random initial velocity.
eddy::config::Deck channel_deck() {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(3, 8);
  deck.domain.cells = {12, 8, 8};
  deck.domain.length = {1.5, 1.0, 1.0};
  using eddy::config::BoundaryType;
  deck.boundary.faces[0].type = BoundaryType::inflow;
  deck.boundary.faces[0].profile = eddy::config::InflowProfile::parabolic;
  deck.boundary.faces[0].velocity = {1, 0, 0};
  deck.boundary.faces[1].type = BoundaryType::outflow;
  deck.boundary.faces[1].outflow = eddy::config::OutflowType::convective;
  deck.boundary.faces[2].type = BoundaryType::no_slip;
  deck.boundary.faces[3].type = BoundaryType::free_slip;
  deck.initial.type = eddy::config::InitialType::random;
  deck.initial.velocity = {1, 0, 0};
  deck.initial.amplitude = 0.2;
  deck.physics.viscosity = 0.02;
  return deck;
}

TEST(RankIndependence, Channel3DWithInflowAndOutflow) { expect_same_fields_as_one_rank(channel_deck(), 5); }

// The projection's divergence computed around the velocity halo exchange (parallel.overlap, the default: the cells
// that read no late ghost while the messages are in flight, the rest after the boundaries) gives the fields of the
// exchange finished first, bit for bit, on every rank count. MPI carries the messages, so that ranks may share a GPU:
// the overlap is decided above the transport.
TEST(RankIndependence, OverlappedHaloExchangeChangesNoValue) {
  for (const bool two_d : {false, true}) {
    eddy::config::Deck deck = channel_deck();
    if (two_d) {
      deck = eddy::testing::periodic_box_deck(2, 16);
      deck.domain.cells = {16, 12, 1};
      deck.boundary.faces[2].type = deck.boundary.faces[3].type = eddy::config::BoundaryType::no_slip;
      deck.boundary.faces[3].type = eddy::config::BoundaryType::moving_wall;
      deck.boundary.faces[3].velocity = {1, 0, 0};
    }
    deck.parallel.halo_backend = deck.parallel.reduction_backend = eddy::config::CommBackend::mpi;
    eddy::parallel::Context world;
    double difference[4] = {0, 0, 0, 0};
    std::vector<eddy::testing::GlobalField> fields[2];
    for (const bool overlap : {true, false}) {
      deck.parallel.overlap = overlap;
      eddy::time::Simulation sim(deck, world, {"", true});
      sim.advance(5);
      for (int c = 0; c < 4; ++c) fields[overlap].push_back(eddy::testing::gather(sim, c));
    }
    if (world.rank() == 0) {
      for (int c = 0; c < 4; ++c) difference[c] = eddy::testing::max_difference(fields[0][c], fields[1][c]);
    }
    MPI_Bcast(difference, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(difference[c], 0) << "component " << c << ", 2D " << two_d;
  }
}

TEST(RankIndependence, PeriodicRandom3DUpwind) {
  eddy::config::Deck deck = eddy::testing::periodic_box_deck(3, 8);
  deck.initial.type = eddy::config::InitialType::random;
  deck.numerics.advection = eddy::config::AdvectionScheme::upwind;
  expect_same_fields_as_one_rank(deck, 5);
}

}  // namespace
