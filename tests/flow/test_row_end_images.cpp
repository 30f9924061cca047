// Where x is periodic and not split between ranks, the velocity stage and the pressure-gradient correction write the
// x ghosts of the velocity's rows (parallel/row_end_images.hpp), and the halo exchange fills the other ghosts by whole
// rows, locally and in messages to the ranks along y and z (run on 1, 2 and 4 ranks). Each kernel, in every form,
// followed by that exchange must leave the velocity bit for bit as the same kernel without the images followed by the
// full exchange: in 2D and 3D, with walls along some of y and z, an even and an odd number of cells along x, for cells
// of one and of two values per thread. The stage's ghosts beyond a wall are left out: the boundary conditions, applied
// after every stage, set them over the whole extent of the other axes.
#include "flow_test_support.hpp"
#include "grid/pair_columns.hpp"
#include "operators/gradient.hpp"
#include "operators/staggered_grid.hpp"
#include "operators/velocity_stage.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/transport.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using eddy::Field;
using eddy::Int3;
using eddy::Real;
using eddy::fields::FaceVector;

struct Case {
  int dimensions;
  std::array<bool, 3> periodic;
  int row_padding;
  int nx = 12;

  std::string text() const {
    std::ostringstream out;
    out << dimensions << "D " << nx << " cells along x, periodic " << periodic[0] << periodic[1] << periodic[2]
        << " padding " << row_padding;
    return out.str();
  }
};

// A distinct value at every view point, ghosts included, per component and seed.
void fill_everywhere(const FaceVector& vector, double seed) {
  const Field components[3] = {vector.u, vector.v, vector.w};
  for (int c = 0; c < 3; ++c) eddy::testing::fill_view_points(components[c], seed + 1.3 * c);
}

// The largest difference of two fields off the rows' padding, which no kernel writes, and, with `skip_walls`, off the
// ghosts beyond the walls of `c`.
double difference_off_padding(const Field& a, const Field& b, const Case& c, const eddy::fields::LocalShape& s,
                              bool skip_walls) {
  const int row_padding = c.row_padding;
  const auto beyond_wall = [&](int i, int j, int k) {
    const int at[3] = {i, j, k};
    for (int d = 0; d < 3; ++d) {
      if (!c.periodic[d] && (at[d] < s.ghost || at[d] >= s.ghost + s.cells[d])) return true;
    }
    return false;
  };
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  double result = 0;
  for (int k = 0; k < static_cast<int>(ha.extent(2)); ++k)
    for (int j = 0; j < static_cast<int>(ha.extent(1)); ++j)
      for (int i = 0; i + row_padding < static_cast<int>(ha.extent(0)); ++i) {
        if (skip_walls && beyond_wall(i, j, k)) continue;
        result = std::max<double>(result, std::abs(ha(i, j, k) - hb(i, j, k)));
      }
  return result;
}

struct Block {
  eddy::grid::Decomposition decomp;
  eddy::fields::LocalShape shape;
  eddy::operators::StaggeredGrid grid;
};

Block make_block(const Case& c, MPI_Comm comm) {
  eddy::grid::GlobalGrid global;
  global.dim = c.dimensions;
  global.cells = {c.nx, 10, c.dimensions == 3 ? 8 : 1};
  global.length = {1.0, 1.3, c.dimensions == 3 ? Real(0.8) : Real(1.0)};
  global.periodic = c.periodic;
  // x whole on every rank; y and z split as the rank count allows.
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const int along_z = c.dimensions == 3 && ranks % 2 == 0 ? 2 : 1;
  Block b;
  b.decomp = eddy::grid::decompose(global, comm, {1, ranks / along_z, along_z});
  b.shape = eddy::fields::local_shape(b.decomp, 1);
  b.shape.row_padding = c.row_padding;
  b.grid = eddy::operators::make_staggered_grid(b.decomp, b.shape);
  return b;
}

// An exchange of one layer of `fields` by the transport a run chooses here (collective).
eddy::parallel::HaloExchange exchange_of(eddy::parallel::Context& context, const Block& b, std::vector<Field> fields) {
  return eddy::parallel::HaloExchange(context, b.decomp, b.shape, std::move(fields), 1,
                                      eddy::parallel::choose_halo_transport(context, b.decomp));
}

std::vector<Field> components(const FaceVector& v, int dimensions) {
  if (dimensions == 3) return {v.u, v.v, v.w};
  return {v.u, v.v};
}

// `run` writes a velocity into its argument (both start alike) without the images and with them; each is then
// exchanged as production does, and the two must agree.
void expect_row_ends_match_the_exchange(
    const Case& c, const Block& b, eddy::parallel::Context& context, const std::string& what, bool skip_walls,
    const std::function<void(const FaceVector&, const eddy::parallel::RowEndImages&)>& run) {
  const FaceVector exchanged = FaceVector::allocate("exchanged", b.shape);
  const FaceVector imaged = FaceVector::allocate("imaged", b.shape);
  fill_everywhere(exchanged, 1.0);
  fill_everywhere(imaged, 1.0);
  eddy::parallel::HaloExchange full = exchange_of(context, b, components(exchanged, c.dimensions));
  eddy::parallel::HaloExchange by_rows = exchange_of(context, b, components(imaged, c.dimensions));
  const eddy::parallel::RowEndImages row_ends = by_rows.row_end_images();
  ASSERT_FALSE(row_ends.empty()) << c.text();
  run(exchanged, {});
  full.exchange();
  run(imaged, row_ends);
  by_rows.exchange_after_row_ends();
  const Field a[3] = {exchanged.u, exchanged.v, exchanged.w}, z[3] = {imaged.u, imaged.v, imaged.w};
  for (int n = 0; n < c.dimensions; ++n) {
    EXPECT_EQ(difference_off_padding(a[n], z[n], c, b.shape, skip_walls), 0.0)
        << c.text() << " " << what << " component " << n;
  }
}

std::vector<Case> cases() {
  std::vector<Case> list;
  for (int padding : {0, 6}) {
    list.push_back({3, {true, true, true}, padding});
    list.push_back({3, {true, false, true}, padding});
    list.push_back({3, {true, true, false}, padding});
    list.push_back({3, {true, false, false}, padding});
    list.push_back({2, {true, false, true}, padding});
    list.push_back({2, {true, true, true}, padding});
    list.push_back({3, {true, true, true}, padding, 11});
  }
  return list;
}

}  // namespace

TEST(RowEndImages, VelocityStagesLeaveTheGhostsOfTheFullExchange) {
  eddy::parallel::Context context;
  for (const Case& c : cases()) {
    const Block b = make_block(c, context.comm());
    auto state = eddy::fields::FlowState::allocate(b.shape);
    fill_everywhere({state.u, state.v, state.w}, 0.0);
    const FaceVector start = FaceVector::allocate("start", b.shape);
    fill_everywhere(start, 4.0);
    for (const eddy::operators::StageWeights weights : {eddy::operators::StageWeights{0.02, -0.01, true},
                                                        eddy::operators::StageWeights{0.013, 0, false, 1.0 / 3.0}}) {
      const FaceVector tendency = FaceVector::allocate("tendency", b.shape);
      enum class Loop { rows, tiles };
      const auto stage = [&](Loop loop, eddy::config::AdvectionScheme scheme) {
        return [&, loop, scheme](const FaceVector& next, const eddy::parallel::RowEndImages& row_ends) {
          fill_everywhere(tendency, 3.0);  // R_{k-1}: the stage overwrites it with R_k
          const eddy::operators::StageTargets targets{next, tendency, start, row_ends};
          if (loop == Loop::tiles) {
            eddy::operators::velocity_stage_by_tiles(state, targets, b.grid, scheme, 0.05, weights);
          } else {
            eddy::operators::velocity_stage_by_rows(state, targets, b.grid, scheme, 0.05, weights);
          }
        };
      };
      const auto central = eddy::config::AdvectionScheme::central, upwind = eddy::config::AdvectionScheme::upwind;
      expect_row_ends_match_the_exchange(c, b, context, "stage by rows", true, stage(Loop::rows, central));
      expect_row_ends_match_the_exchange(c, b, context, "stage by rows, upwind", true, stage(Loop::rows, upwind));
      expect_row_ends_match_the_exchange(c, b, context, "stage by tiles", true, stage(Loop::tiles, central));
    }
  }
}

TEST(RowEndImages, GradientCorrectionLeavesTheGhostsOfTheFullExchange) {
  eddy::parallel::Context context;
  for (const Case& c : cases()) {
    const Block b = make_block(c, context.comm());
    // A pressure with valid ghosts, as the solver leaves it.
    const Field pressure = eddy::fields::make_field("p", b.shape);
    {
      auto host = Kokkos::create_mirror_view(pressure);
      for (std::size_t n = 0; n < host.span(); ++n) host.data()[n] = std::cos(0.23 * n);
      Kokkos::deep_copy(pressure, host);
    }
    exchange_of(context, b, {pressure}).exchange();
    const bool pairs = eddy::grid::fits_cell_pairs(b.shape, {pressure}) && b.shape.cells[0] % 2 == 0;
    for (bool by_pairs : {false, true}) {
      if (by_pairs && !pairs) continue;
      // The correction moves the faces in place: it starts from a velocity whose ghosts the exchange has filled.
      const auto correct = [&](const FaceVector& velocity, const eddy::parallel::RowEndImages& row_ends) {
        exchange_of(context, b, components(velocity, c.dimensions)).exchange();
        const eddy::fields::FlowState state{velocity.u, velocity.v, velocity.w, pressure, b.shape};
        if (by_pairs) {
          eddy::operators::subtract_pressure_gradient_by_pairs(state, pressure, 0.7, b.grid, {}, row_ends);
        } else {
          eddy::operators::subtract_pressure_gradient(state, pressure, 0.7, b.grid, {}, row_ends);
        }
      };
      expect_row_ends_match_the_exchange(c, b, context, by_pairs ? "correction by pairs" : "correction", false,
                                         correct);
    }
  }
}
