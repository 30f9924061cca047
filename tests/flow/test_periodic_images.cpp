// On a rank alone along its periodic axes, the velocity stage and the pressure-gradient correction write the periodic
// images of the faces they set (parallel/periodic_images.hpp) in place of the velocity's halo exchange. Each kernel,
// in every form, must leave every view point (rows' padding aside) bit for bit as the same kernel without images
// followed by the exchange: in 2D and 3D, with walls along some axes (their ghosts are the boundary conditions' and
// stay as the kernel left them) and periodic along the others, for cells of one and of two values per thread.
#include "flow_test_support.hpp"
#include "grid/pair_columns.hpp"
#include "operators/gradient.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/halo_exchange.hpp"
#include "time/fused_stage.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

namespace {

using eddy::Field;
using eddy::Int3;
using eddy::Real;
using eddy::fields::FaceVector;

struct Case {
  int dimensions;
  std::array<bool, 3> periodic;
  int row_padding;

  std::string text() const {
    std::ostringstream out;
    out << dimensions << "D periodic " << periodic[0] << periodic[1] << periodic[2] << " padding " << row_padding;
    return out.str();
  }
};

// A distinct value at every view point, ghosts included, per component and seed.
void fill_everywhere(const FaceVector& vector, double seed) {
  const Field components[3] = {vector.u, vector.v, vector.w};
  for (int c = 0; c < 3; ++c) {
    auto host = Kokkos::create_mirror_view(components[c]);
    for (std::size_t n = 0; n < host.span(); ++n) host.data()[n] = std::sin(0.37 * n + 1.3 * c + seed);
    Kokkos::deep_copy(components[c], host);
  }
}

// The largest difference of two fields off the rows' padding, which no kernel writes.
double difference_off_padding(const Field& a, const Field& b, int row_padding) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  double result = 0;
  for (int k = 0; k < static_cast<int>(ha.extent(2)); ++k)
    for (int j = 0; j < static_cast<int>(ha.extent(1)); ++j)
      for (int i = 0; i + row_padding < static_cast<int>(ha.extent(0)); ++i)
        result = std::max(result, std::abs(ha(i, j, k) - hb(i, j, k)));
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
  global.cells = {12, 10, c.dimensions == 3 ? 8 : 1};
  global.length = {1.0, 1.3, c.dimensions == 3 ? 0.8 : 1.0};
  global.periodic = c.periodic;
  Block b;
  b.decomp = eddy::grid::decompose(global, comm);
  b.shape = eddy::fields::local_shape(b.decomp, 1);
  b.shape.row_padding = c.row_padding;
  b.grid = eddy::operators::make_staggered_grid(b.decomp, b.shape);
  return b;
}

std::vector<Field> components(const FaceVector& v, int dimensions) {
  if (dimensions == 3) return {v.u, v.v, v.w};
  return {v.u, v.v};
}

// `run` writes a velocity into its argument (both start alike) without images and with them: the first is then
// exchanged, and the two must agree everywhere.
void expect_images_match_the_exchange(
    const Case& c, const Block& b, eddy::parallel::Context& context, const std::string& what,
    const std::function<void(const FaceVector&, const eddy::parallel::PeriodicImages&)>& run) {
  const FaceVector exchanged = FaceVector::allocate("exchanged", b.shape),
                   imaged = FaceVector::allocate("imaged", b.shape);
  fill_everywhere(exchanged, 1.0);
  fill_everywhere(imaged, 1.0);
  eddy::parallel::HaloExchange halo(context, b.decomp, b.shape, components(exchanged, c.dimensions), 1);
  const eddy::parallel::PeriodicImages images = halo.images_in_place();
  ASSERT_FALSE(images.empty()) << c.text();
  run(exchanged, {});
  halo.exchange();
  run(imaged, images);
  const Field a[3] = {exchanged.u, exchanged.v, exchanged.w}, z[3] = {imaged.u, imaged.v, imaged.w};
  for (int n = 0; n < c.dimensions; ++n) {
    EXPECT_EQ(difference_off_padding(a[n], z[n], c.row_padding), 0.0) << c.text() << " " << what << " component " << n;
  }
}

std::vector<Case> cases() {
  std::vector<Case> list;
  for (int padding : {0, 6}) {
    list.push_back({3, {true, true, true}, padding});
    list.push_back({3, {true, false, true}, padding});
    list.push_back({3, {false, true, false}, padding});
    list.push_back({2, {true, false, true}, padding});
    list.push_back({2, {true, true, true}, padding});
  }
  return list;
}

}  // namespace

TEST(PeriodicImages, VelocityStagesWriteTheGhostsTheExchangeWouldFill) {
  eddy::parallel::Context context(MPI_COMM_SELF);
  for (const Case& c : cases()) {
    const Block b = make_block(c, context.comm());
    auto state = eddy::fields::FlowState::allocate(b.shape);
    fill_everywhere({state.u, state.v, state.w}, 0.0);
    const FaceVector start = FaceVector::allocate("start", b.shape);
    fill_everywhere(start, 4.0);
    for (const eddy::time::StageWeights weights :
         {eddy::time::StageWeights{0.02, -0.01, true}, eddy::time::StageWeights{0.013, 0, false, 1.0 / 3.0}}) {
      const FaceVector tendency = FaceVector::allocate("tendency", b.shape);
      const auto stage = [&](bool tiles) {
        return [&, tiles](const FaceVector& next, const eddy::parallel::PeriodicImages& images) {
          fill_everywhere(tendency, 3.0);  // R_{k-1}: the stage overwrites it with R_k
          const eddy::time::StageTargets targets{next, tendency, start, images};
          if (tiles) {
            eddy::time::fused_stage_by_tiles(state, targets, b.grid, eddy::config::AdvectionScheme::central, 0.05,
                                             weights);
          } else {
            eddy::time::fused_stage_by_points(state, targets, b.grid, eddy::config::AdvectionScheme::upwind, 0.05,
                                              weights);
          }
        };
      };
      expect_images_match_the_exchange(c, b, context, "stage by points", stage(false));
      expect_images_match_the_exchange(c, b, context, "stage by tiles", stage(true));
    }
  }
}

TEST(PeriodicImages, GradientCorrectionWritesTheGhostsTheExchangeWouldFill) {
  eddy::parallel::Context context(MPI_COMM_SELF);
  for (const Case& c : cases()) {
    const Block b = make_block(c, context.comm());
    const Field pressure = eddy::fields::make_field("p", b.shape);
    {
      auto host = Kokkos::create_mirror_view(pressure);
      for (std::size_t n = 0; n < host.span(); ++n) host.data()[n] = std::cos(0.23 * n);
      Kokkos::deep_copy(pressure, host);
    }
    const bool pairs = eddy::grid::fits_cell_pairs(b.shape, {pressure});
    for (bool by_pairs : {false, true}) {
      if (by_pairs && !pairs) continue;
      // The correction moves the faces in place: it starts from a velocity whose ghosts the exchange has filled.
      const auto correct = [&](const FaceVector& velocity, const eddy::parallel::PeriodicImages& images) {
        eddy::parallel::HaloExchange(context, b.decomp, b.shape, components(velocity, c.dimensions), 1).exchange();
        const eddy::fields::FlowState state{velocity.u, velocity.v, velocity.w, pressure, b.shape};
        if (by_pairs) {
          eddy::operators::subtract_pressure_gradient_by_pairs(state, pressure, 0.7, b.grid, {}, images);
        } else {
          eddy::operators::subtract_pressure_gradient(state, pressure, 0.7, b.grid, {}, images);
        }
      };
      expect_images_match_the_exchange(c, b, context, by_pairs ? "correction by pairs" : "correction", correct);
    }
  }
}
