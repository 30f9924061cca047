// Writes small runs with known analytic fields for the Python, ParaView and postprocess checks (ctest fixture
// io_sample): EDDY_IO_SAMPLE_DIR/sample2d (collective HDF5 where available), sample3d (token passing) and stretched2d
// (sample2d's fields on cells clustered towards y = 0.5).
// Velocity (s = 1 + t): u = s (1 + 2x + 3y + z/2), v = s (-1 + x/4 - 2y + z), w = s (1/2 - x + 3y/4) (3D; 0 in 2D);
// pressure p = s x y; scalars temperature = s (2 + x - 3 y + z) and dye = s x^2 (cell centres; ghosts NaN).
// Steps 0, 10, 20 at t = 0, 0.1, 0.2.
#include "io/checkpoint.hpp"
#include "io/field_writer.hpp"
#include "io/run_directory.hpp"
#include "io/telemetry.hpp"
#include "io_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace {

using namespace eddy;

void write_sample(const std::filesystem::path& dir, int dimensions, io::WriteMode mode, bool stretched = false) {
  parallel::Context context(MPI_COMM_WORLD);
  auto deck = dimensions == 3 ? io_test::make_deck(3, {8, 6, 4}, {1.0, 1.5, 2.0}, {0.5, -1.0, 0.25})
                              : io_test::make_deck(2, {16, 12, 1}, {2.0, 1.5, 0.125}, {-1.0, 0.5, 0.0});
  if (stretched) deck.domain.stretching[1] = {config::Clustering::low, 2.0, 0, {}, ""};
  io_test::use_mode(deck, mode);
  deck.output.directory = dir.string();
  deck.scalars = {config::ScalarConfig{}, config::ScalarConfig{}};
  deck.scalars[0].name = "temperature";
  deck.scalars[1].name = "dye";
  deck.output.overwrite = true;
  io::run_on_rank0(MPI_COMM_WORLD, [&] { std::filesystem::remove_all(dir); });
  const auto run_dir = io::prepare_run_directory(deck.output, context, false, "name: sample\n");
  const auto decomp = grid::decompose(io_test::grid_of(deck), MPI_COMM_WORLD);
  const auto shape = fields::local_shape(decomp, 1);
  auto state = fields::FlowState::allocate(shape);
  const std::vector<fields::NamedField> scalars{{"temperature", fields::make_field("temperature", shape)},
                                                {"dye", fields::make_field("dye", shape)}};
  io::FieldWriter writer(deck, decomp, shape, context, run_dir);
  io::Telemetry telemetry(run_dir, context);
  const bool three_d = dimensions == 3;
  for (long long step = 0; step <= 20; ++step) {
    const double t = 0.01 * step, s = 1 + t;
    if (step > 0) {
      StepRecord record;
      record.step = step;
      record.time = t;
      record.dt = 0.01;
      record.cfl = 0.3;
      record.kinetic_energy = std::exp(-t);
      record.max_divergence = 1e-12 * step;
      record.poisson_iterations = 5 + static_cast<int>(step % 3);
      record.poisson_residual = 1e-9;
      record.wall_seconds = 0.002;
      record.phase_seconds[static_cast<int>(Phase::poisson)] = 0.001;
      telemetry.record(record);
    }
    if (step % 10 != 0) continue;
    io_test::fill_state(state, decomp, [&](int q, double x, double y, double z) {
      const double zz = three_d ? z : 0;
      switch (q) {
        case 0:
          return s * (1 + 2 * x + 3 * y + 0.5 * zz);
        case 1:
          return s * (-1 + 0.25 * x - 2 * y + zz);
        case 2:
          return three_d ? s * (0.5 - x + 0.75 * y) : 0.0;
        default:
          return s * x * y;
      }
    });
    io_test::fill_cells(scalars[0].field, decomp, shape,
                        [&](double x, double y, double z) { return s * (2 + x - 3 * y + (three_d ? z : 0.0)); });
    io_test::fill_cells(scalars[1].field, decomp, shape, [&](double x, double, double) { return s * x * x; });
    writer.write(state, scalars, t, step);
  }
  io::Checkpointer(deck, decomp, shape, context, run_dir, "name: sample\n").write(state, 0.2, 20, 0.01, scalars);
  telemetry.write_summary(io::JsonObject().set("case", "sample").set("steps", 20).set("final_time", 0.2));
}

TEST(Sample, Write) {
  const char* dir = std::getenv("EDDY_IO_SAMPLE_DIR");
  if (dir == nullptr) GTEST_SKIP() << "EDDY_IO_SAMPLE_DIR is not set";
  write_sample(std::filesystem::path(dir) / "sample2d", 2, io_test::modes().front());
  write_sample(std::filesystem::path(dir) / "sample3d", 3, io::WriteMode::token_passing);
  write_sample(std::filesystem::path(dir) / "stretched2d", 2, io::WriteMode::token_passing, true);
}

}  // namespace
