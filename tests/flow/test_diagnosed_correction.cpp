// The step's last correction, written out of place with the flow diagnostics in the same pass
// (operators/correction_with_diagnostics.hpp), against production's two passes: the correction in place by face pairs,
// the halo exchange, and the diagnostics of the exchanged velocity. The velocity must agree everywhere the exchange
// leaves it alike, and the diagnostics must be those of the exchanged velocity: in 2D and 3D, periodic and walled,
// with corrected outflow faces, with and without the rows' ends, padded rows, on 1, 2 and 4 ranks.
#include "flow_test_support.hpp"
#include "grid/pair_columns.hpp"
#include "operators/correction_with_diagnostics.hpp"
#include "operators/gradient.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/transport.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::fields::FaceVector;

struct Case {
  int dimensions;
  std::array<bool, 3> periodic;
  int row_padding;
  bool outflow = false;  // the high y face moves with the correction (y must be walled)

  std::string text() const {
    std::ostringstream out;
    out << dimensions << "D periodic " << periodic[0] << periodic[1] << periodic[2] << " padding " << row_padding
        << (outflow ? " outflow" : "");
    return out.str();
  }
};

std::vector<Field> velocity_of(const Field& u, const Field& v, const Field& w, int dimensions) {
  if (dimensions == 3) return {u, v, w};
  return {u, v};
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

std::vector<Case> cases() {
  std::vector<Case> list;
  for (int padding : {0, 6}) {
    list.push_back({3, {true, true, true}, padding});
    list.push_back({3, {true, false, true}, padding});
    list.push_back({3, {false, true, false}, padding});
    list.push_back({3, {true, false, true}, padding, true});
    list.push_back({2, {true, true, true}, padding});
    list.push_back({2, {false, false, true}, padding, true});
  }
  return list;
}

// One case's block and the exchanges that its comparisons rebind to their fields: building an exchange between GPUs
// opens the neighbours' memory and events, which costs far more than a comparison.
struct Block {
  eddy::grid::Decomposition decomp;
  eddy::fields::LocalShape shape;
  eddy::operators::StaggeredGrid grid;
  std::unique_ptr<eddy::parallel::HaloExchange> state_halo;     // u, v, w and p
  std::unique_ptr<eddy::parallel::HaloExchange> velocity_halo;  // the velocity's components
};

Block make_block(const Case& c, eddy::parallel::Context& context) {
  eddy::grid::GlobalGrid global;
  global.dim = c.dimensions;
  global.cells = {16, 10, c.dimensions == 3 ? 8 : 1};
  global.length = {1.0, 1.3, c.dimensions == 3 ? Real(0.8) : Real(1.0)};
  global.periodic = c.periodic;
  Block b;
  b.decomp = eddy::grid::decompose(global, context.comm());
  b.shape = eddy::fields::local_shape(b.decomp, 1);
  b.shape.row_padding = c.row_padding;
  b.grid = eddy::operators::make_staggered_grid(b.decomp, b.shape);
  const auto fields = eddy::fields::FlowState::allocate(b.shape);
  const eddy::parallel::Transport transport = eddy::parallel::choose_halo_transport(context, b.decomp);
  b.state_halo = std::make_unique<eddy::parallel::HaloExchange>(
      context, b.decomp, b.shape, std::vector<Field>{fields.u, fields.v, fields.w, fields.p}, 1, transport);
  b.velocity_halo = std::make_unique<eddy::parallel::HaloExchange>(
      context, b.decomp, b.shape, velocity_of(fields.u, fields.v, fields.w, c.dimensions), 1, transport);
  return b;
}

// Compares the two ways for one case with the rows' ends or without, from u* and a pressure that `fill` writes; returns
// false where the fields do not fit the correction out of place.
bool compare(const Case& c, Block& b, bool with_row_ends,
             const std::function<void(const eddy::fields::FlowState&, const eddy::fields::LocalShape&)>& fill,
             const std::string& what_fill) {
  const auto& shape = b.shape;
  const auto& grid = b.grid;
  eddy::operators::CorrectedBoundaries corrected{};
  corrected[1][1] = c.outflow;

  // u* and the pressure with their ghosts valid, as the projection leaves them.
  const auto start = eddy::fields::FlowState::allocate(shape);
  fill(start, shape);
  b.state_halo->rebind({start.u, start.v, start.w, start.p});
  b.state_halo->exchange();
  const auto exchange_velocity = [&](const Field& u, const Field& v, const Field& w) {
    b.velocity_halo->rebind(velocity_of(u, v, w, c.dimensions));
    with_row_ends ? b.velocity_halo->exchange_after_row_ends() : b.velocity_halo->exchange();
  };
  const eddy::parallel::RowEndImages images =
      c.outflow ? eddy::parallel::RowEndImages{} : b.velocity_halo->row_end_images();
  if (with_row_ends && images.empty()) return false;
  const eddy::parallel::RowEndImages row_ends = with_row_ends ? images : eddy::parallel::RowEndImages{};
  const FaceVector out = FaceVector::allocate("out", shape);
  if (!eddy::operators::fits_diagnosed_correction(start, out, grid, row_ends)) return false;
  const Real factor = 0.7;

  // Production's two passes.
  auto in_place = eddy::fields::FlowState::allocate(shape);
  Kokkos::deep_copy(in_place.u, start.u);
  Kokkos::deep_copy(in_place.v, start.v);
  Kokkos::deep_copy(in_place.w, start.w);
  Kokkos::deep_copy(in_place.p, start.p);
  eddy::operators::subtract_pressure_gradient_by_pairs(in_place, in_place.p, factor, grid, corrected, row_ends);
  exchange_velocity(in_place.u, in_place.v, in_place.w);
  const auto expected = eddy::operators::local_flow_diagnostics_by_pairs(in_place, grid);

  // One pass out of place; its diagnostics come before the exchange.
  const auto diagnosed = eddy::operators::correct_and_diagnose(start, out, factor, grid, corrected, row_ends);
  exchange_velocity(out.u, out.v, out.w);

  const std::string what = c.text() + (with_row_ends ? ", rows' ends, " : ", ") + what_fill;
  EXPECT_LE(eddy::testing::max_difference_off_padding(out.u, in_place.u, c.row_padding), 1e-14) << what;
  EXPECT_LE(eddy::testing::max_difference_off_padding(out.v, in_place.v, c.row_padding), 1e-14) << what;
  if (c.dimensions == 3) {
    EXPECT_LE(eddy::testing::max_difference_off_padding(out.w, in_place.w, c.row_padding), 1e-14) << what;
  }
  EXPECT_LE(relative(diagnosed.kinetic_energy, expected.kinetic_energy), 1e-13) << what;
  EXPECT_LE(relative(diagnosed.max_divergence, expected.max_divergence), 1e-13) << what;
  EXPECT_LE(relative(diagnosed.velocity_rate, expected.velocity_rate), 1e-13) << what;
  // The correction moved the faces: the diagnostics of u* differ.
  const auto before = eddy::operators::local_flow_diagnostics_by_pairs(start, grid);
  EXPECT_GT(relative(before.max_divergence, expected.max_divergence), 1e-3) << what;
  return true;
}

void fill_state(const eddy::fields::FlowState& s, double seed, double pressure_scale) {
  eddy::testing::fill_view_points(s.u, seed);
  eddy::testing::fill_view_points(s.v, seed + 1);
  eddy::testing::fill_view_points(s.w, seed + 2);
  eddy::testing::fill_view_points(s.p, seed + 3);
  if (pressure_scale != 1) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.p);
    for (std::size_t n = 0; n < host.span(); ++n) host.data()[n] *= pressure_scale;
    Kokkos::deep_copy(s.p, host);
  }
}

std::vector<Case> unpadded(const std::vector<Case>& all) {
  std::vector<Case> list;
  for (const Case& c : all) {
    if (c.row_padding == 0) list.push_back(c);
  }
  return list;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string name = std::to_string(c.dimensions) + "D_periodic";
  for (bool p : c.periodic) name += p ? "1" : "0";
  name += "_padding" + std::to_string(c.row_padding);
  return name + (c.outflow ? "_outflow" : "");
}

}  // namespace

// One test per case, so that a run names the case it is in and what each one costs.
class DiagnosedCorrection : public ::testing::TestWithParam<Case> {};
// The cases with unpadded rows, where the spikes are placed.
class DiagnosedCorrectionSpikes : public ::testing::TestWithParam<Case> {};

TEST_P(DiagnosedCorrection, MatchesTheCorrectionInPlaceThenTheExchangeThenTheDiagnostics) {
  eddy::parallel::Context context(MPI_COMM_WORLD);
  const Case& c = GetParam();
  Block block = make_block(c, context);
  int checked = 0;
  for (const bool with_row_ends : {false, true}) {
    const auto random = [](const eddy::fields::FlowState& s, const eddy::fields::LocalShape&) {
      fill_state(s, 0.0, 1.0);
    };
    checked += compare(c, block, with_row_ends, random, "random") ? 1 : 0;
  }
  // Without the rows' ends every case fits; with them, those whose x is whole and not an outflow.
  EXPECT_GE(checked, 1) << c.text();
}

// The maxima come from one cell each: a pressure spike at a cell beside a side of the rank or of a tile makes the faces
// around it the largest, so each special face (ghosts, boundary faces, the neighbours' faces a thread corrects itself)
// decides the maxima in some run.
TEST_P(DiagnosedCorrectionSpikes, EveryCellBesideARankOrTileSideCounts) {
  eddy::parallel::Context context(MPI_COMM_WORLD);
  const Case& c = GetParam();
  Block block = make_block(c, context);
  for (const bool with_row_ends : {false, true}) {
    const int g = block.shape.ghost;
    const auto& n = block.shape.cells;
    const std::vector<int> xs{g, g + 1, g + n[0] - 2, g + n[0] - 1};
    std::vector<int> ys{g, g + n[1] - 1};
    for (int j : {7, 8}) {
      if (j >= g && j < g + n[1]) ys.push_back(j);
    }
    const std::vector<int> zs = c.dimensions == 3 ? std::vector<int>{g, g + n[2] - 1} : std::vector<int>{g};
    for (int i : xs)
      for (int j : ys)
        for (int k : zs) {
          const auto spike = [&](const eddy::fields::FlowState& s, const eddy::fields::LocalShape&) {
            fill_state(s, 0.5, 0.01);
            auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.p);
            host(i, j, k) = 40.0;
            Kokkos::deep_copy(s.p, host);
          };
          std::ostringstream where;
          where << "spike at " << i << "," << j << "," << k;
          compare(c, block, with_row_ends, spike, where.str());
        }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, DiagnosedCorrection, ::testing::ValuesIn(cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Cases, DiagnosedCorrectionSpikes, ::testing::ValuesIn(unpadded(cases())), case_name);
