// Planes of cells (deck section `planes`): the layer nearest the plane's coordinate, written by rank 0 from the ranks
// that hold it, equals the analytic cell-centred field on 1, 2 and 4 ranks, for each normal axis.
#include "grid/global_grid.hpp"
#include "io/collective.hpp"
#include "io/hdf5_file.hpp"
#include "io/plane_writer.hpp"
#include "round_off.hpp"
#include "run/run_case.hpp"
#include "time/simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace eddy;

// A periodic box whose velocity (sin 2 pi y, sin 2 pi z, sin 2 pi x) is divergence-free and averages from the faces to
// the cell centres exactly (each component is constant along its own axis).
config::Deck box(const std::filesystem::path& dir) {
  config::Deck deck;
  deck.name = "planes";
  deck.domain.dimensions = 3;
  deck.domain.cells = {8, 6, 4};
  deck.domain.length = {1, 1, 1};
  for (auto& face : deck.boundary.faces) face.type = config::BoundaryType::periodic;
  deck.initial.type = config::InitialType::expression;
  deck.initial.velocity_expressions = {"sin(2*pi*y)", "sin(2*pi*z)", "sin(2*pi*x)"};
  deck.time.max_steps = 0;
  deck.output.directory = dir.string();
  deck.output.log_interval = 0;
  deck.planes = {{"normal_x", 0, 0.3, 1}, {"normal_y", 1, 0.55, 1}, {"normal_z", 2, 1.0, 1}};
  return deck;
}

TEST(Planes, HoldTheLayerNearestTheirCoordinate) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto dir = std::filesystem::current_path() / ("io_planes_np" + std::to_string(size));
  io::run_on_rank0(MPI_COMM_WORLD, [&] { std::filesystem::remove_all(dir); });
  const config::Deck deck = box(dir);
  {
    parallel::Context world(MPI_COMM_WORLD);
    time::Simulation sim(deck, world, {"", true});
    ASSERT_EQ(run::run_case(sim), run::exit_finished);
  }
  const int expected_index[3] = {2, 3, 3};  // 0.3 in [0.25, 0.375); 0.55 in [0.5, 0.667); 1.0 is the last cell's face
  for (int axis = 0; axis < 3; ++axis) {
    const auto& plane = deck.planes[axis];
    const io::PlaneLayer layer = io::plane_layer(plane, grid::global_grid(deck));
    EXPECT_EQ(layer.index, expected_index[axis]) << plane.name;
    const io::H5Reader file(dir / "planes" / (plane.name + "_000000.h5"));
    EXPECT_EQ(file.read_integer("index"), expected_index[axis]);
    const auto dims = file.dims("velocity");
    ASSERT_EQ(dims.size(), 4u);
    EXPECT_EQ(dims[2 - axis], 1u);  // (z, y, x, component): one cell along the normal
    std::vector<double> velocity(dims[0] * dims[1] * dims[2] * 3);
    file.read_block("velocity", {0, 0, 0, 0}, dims, velocity.data());
    const std::vector<double> origin = file.read_doubles("origin"), spacing = file.read_doubles("spacing");
    double worst = 0;
    std::size_t n = 0;
    for (hsize_t k = 0; k < dims[0]; ++k) {
      for (hsize_t j = 0; j < dims[1]; ++j) {
        for (hsize_t i = 0; i < dims[2]; ++i, n += 3) {
          const double x = origin[0] + (i + 0.5) * spacing[0], y = origin[1] + (j + 0.5) * spacing[1],
                       z = origin[2] + (k + 0.5) * spacing[2];
          worst = std::max({worst, std::abs(velocity[n] - std::sin(2 * M_PI * y)),
                            std::abs(velocity[n + 1] - std::sin(2 * M_PI * z)),
                            std::abs(velocity[n + 2] - std::sin(2 * M_PI * x))});
        }
      }
    }
    EXPECT_LT(worst, eddy::testing::round_off(1e-12, 1e-5)) << plane.name;
  }
}

}  // namespace
