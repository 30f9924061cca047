// The staggered stencils on fields they must treat exactly: differences and interpolation of linear fields,
// Laplacian of quadratics, div(grad) equal to the Poisson operator, and the energy property of advection.
#include "core/types.hpp"
#include "fields/flat_field.hpp"
#include "grid/decomposition.hpp"
#include "operators/advection_stencil.hpp"
#include "operators/divergence.hpp"
#include "operators/divergence_stencil.hpp"
#include "operators/gradient.hpp"
#include "operators/laplacian.hpp"
#include "parallel/halo_exchange.hpp"
#include "round_off.hpp"
#include "solver/laplacian.hpp"
#include "solver/poisson_level.hpp"
#include "time/initial_conditions.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using eddy::Field;
using eddy::Real;
using eddy::operators::CentralFlux;
using eddy::operators::StaggeredGrid;
using eddy::operators::UpwindFlux;

struct Block {
  eddy::grid::Decomposition decomp;
  eddy::fields::LocalShape shape;
  StaggeredGrid grid;
};

Block make_block(int dimensions, bool periodic) {
  eddy::grid::GlobalGrid g;
  g.dim = dimensions;
  g.cells = {8, 6, dimensions == 3 ? 5 : 1};
  g.length = {1.0, 1.5, dimensions == 3 ? Real(2.5) : Real(1.0)};  // dx, dy, dz all different
  g.periodic = {periodic, periodic, dimensions == 2 || periodic};
  Block b;
  b.decomp = eddy::grid::decompose(g, MPI_COMM_SELF);
  b.shape = eddy::fields::local_shape(b.decomp, 1);
  b.grid = eddy::operators::make_staggered_grid(b.decomp, b.shape);
  return b;
}

// Fills every point (ghosts too) with f(x, y, z) at the location of view index (i, j, k) shifted by `shift` cells.
template <class F>
Field sample(const Block& b, eddy::Real3 shift, F f) {
  Field field = eddy::fields::make_field("sample", b.shape);
  auto host = Kokkos::create_mirror_view(field);
  const int g = b.shape.ghost;
  for (int k = 0; k < b.shape.extent(2); ++k)
    for (int j = 0; j < b.shape.extent(1); ++j)
      for (int i = 0; i < b.shape.extent(0); ++i)
        host(i, j, k) = f((i - g + shift[0]) * b.grid.spacing[0], (j - g + shift[1]) * b.grid.spacing[1],
                          (k - g + shift[2]) * b.grid.spacing[2]);
  Kokkos::deep_copy(field, host);
  return field;
}

// Evaluates `stencil(i, j, k)` on the device over the points whose neighbours all exist, returns max |value - exact|.
template <class S, class E>
double max_error(const Block& b, S stencil, E exact) {
  const int lo = 1, hi[3] = {b.shape.extent(0) - 1, b.shape.extent(1) - 1, b.shape.extent(2) - 1};
  const bool three_d = b.grid.three_d;
  Real error = 0;
  Kokkos::parallel_reduce(
      "test::stencil", eddy::grid::box({lo, lo, three_d ? lo : 1}, {hi[0], hi[1], three_d ? hi[2] : 2}),
      KOKKOS_LAMBDA(int i, int j, int k, Real& e) {
        const Real d = Kokkos::fabs(stencil(i, j, k) - exact(i, j, k));
        if (d > e) e = d;
      },
      Kokkos::Max<Real>(error));
  return error;
}

// The sampled exact values of a field, as a stencil-shaped functor.
struct ValueOf {
  explicit ValueOf(Field field) : f(field) {}
  KOKKOS_INLINE_FUNCTION Real operator()(int i, int j, int k) const { return f(i, j, k); }
  Field f;
};

// nvcc cannot compile device lambdas inside TEST bodies (private member functions): the body lives here.
void check_differences_and_divergence_of_linear_fields_are_exact() {
  for (int dim : {2, 3}) {
    const Block b = make_block(dim, false);
    const auto inv = b.grid.inv;
    const bool three_d = b.grid.three_d;
    const Field p = sample(b, {0.5, 0.5, 0.5}, [](Real x, Real y, Real z) { return 3 * x - 2 * y + 5 * z + 1; });
    EXPECT_LT(
        max_error(
            b, KOKKOS_LAMBDA(int i, int j, int k) { return eddy::operators::ddx_center_to_face(p, i, j, k, inv.x); },
            KOKKOS_LAMBDA(int, int, int) { return Real(3); }),
        1e-12);
    EXPECT_LT(
        max_error(
            b, KOKKOS_LAMBDA(int i, int j, int k) { return eddy::operators::ddy_center_to_face(p, i, j, k, inv.y); },
            KOKKOS_LAMBDA(int, int, int) { return Real(-2); }),
        1e-12);
    const Field u = sample(b, {1, 0.5, 0.5}, [](Real x, Real y, Real) { return 2 * x + y; });
    const Field v = sample(b, {0.5, 1, 0.5}, [](Real x, Real y, Real) { return -7 * y + x; });
    const Field w = sample(b, {0.5, 0.5, 1}, [](Real, Real y, Real z) { return 4 * z - y; });
    const Real expected = three_d ? 2 - 7 + 4 : 2 - 7;
    EXPECT_LT(max_error(
                  b,
                  KOKKOS_LAMBDA(int i, int j, int k) {
                    return eddy::operators::divergence_at_center(u, v, w, i, j, k, inv, three_d);
                  },
                  KOKKOS_LAMBDA(int, int, int) { return expected; }),
              1e-11)
        << dim << "D";
  }
}

TEST(Stencils, DifferencesAndDivergenceOfLinearFieldsAreExact) {
  check_differences_and_divergence_of_linear_fields_are_exact();
}

// nvcc cannot compile device lambdas inside TEST bodies (private member functions): the body lives here.
void check_interpolation_of_linear_fields_is_exact() {
  const Block b = make_block(3, false);
  auto linear = [](Real x, Real y, Real z) { return 1.5 * x - 0.5 * y + 2 * z + 0.25; };
  const Field u = sample(b, {1, 0.5, 0.5}, linear), v = sample(b, {0.5, 1, 0.5}, linear);
  const Field w = sample(b, {0.5, 0.5, 1}, linear);
  const Field at_center = sample(b, {0.5, 0.5, 0.5}, linear), at_xy = sample(b, {1, 1, 0.5}, linear);
  const Field at_xz = sample(b, {1, 0.5, 1}, linear), at_yz = sample(b, {0.5, 1, 1}, linear);
  using namespace eddy::operators;
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_u_to_center(u, i, j, k); }, ValueOf(at_center)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_v_to_center(v, i, j, k); }, ValueOf(at_center)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_w_to_center(w, i, j, k); }, ValueOf(at_center)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_u_to_xy_edge(u, i, j, k); }, ValueOf(at_xy)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_v_to_xy_edge(v, i, j, k); }, ValueOf(at_xy)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_u_to_xz_edge(u, i, j, k); }, ValueOf(at_xz)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_w_to_xz_edge(w, i, j, k); }, ValueOf(at_xz)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_v_to_yz_edge(v, i, j, k); }, ValueOf(at_yz)),
            1e-12);
  EXPECT_LT(max_error(
                b, KOKKOS_LAMBDA(int i, int j, int k) { return interp_w_to_yz_edge(w, i, j, k); }, ValueOf(at_yz)),
            1e-12);
}

TEST(Stencils, InterpolationOfLinearFieldsIsExact) { check_interpolation_of_linear_fields_is_exact(); }

// Largest error of the Laplacian of `f` (a view or a FlatField of a quadratic) against its exact value `expected`.
template <class F>
double laplacian_error(const Block& b, const F& f, Real expected) {
  const auto inv = b.grid.inv;
  const bool three_d = b.grid.three_d;
  return max_error(
      b, KOKKOS_LAMBDA(int i, int j, int k) { return eddy::operators::laplacian(f, i, j, k, inv, three_d); },
      KOKKOS_LAMBDA(int, int, int) { return expected; });
}

// nvcc cannot compile device lambdas inside TEST bodies (private member functions): the body lives here.
void check_laplacian_of_quadratics_is_exact() {
  for (int dim : {2, 3}) {
    const Block b = make_block(dim, false);
    const Field f =
        sample(b, {1, 0.5, 0.5}, [](Real x, Real y, Real z) { return x * x + 2 * y * y - 3 * z * z + x * y; });
    const Real expected = b.grid.three_d ? 2 + 4 - 6 : 2 + 4;
    EXPECT_LT(laplacian_error(b, f, expected), 1e-9) << dim << "D";
    EXPECT_LT(laplacian_error(b, eddy::fields::FlatField(f), expected), 1e-9) << dim << "D, through int offsets";
  }
}

// nvcc cannot compile device lambdas inside TEST bodies (private member functions): the body lives here.
int points_where_flat_reads_differ() {
  const Block b = make_block(3, false);
  const Field f = sample(b, {0.5, 0.5, 0.5}, [](Real x, Real y, Real z) { return std::sin(7 * x) + y * y * z + x; });
  const eddy::fields::FlatField flat(f);
  int differ = 0;
  Kokkos::parallel_reduce(
      "test::flat_field", eddy::grid::box({0, 0, 0}, {b.shape.extent(0), b.shape.extent(1), b.shape.extent(2)}),
      KOKKOS_LAMBDA(int i, int j, int k, int& n) { n += flat(i, j, k) != f(i, j, k); }, differ);
  return differ;
}

TEST(Stencils, FlatFieldReadsTheViewsValueAtEveryPointGhostsIncluded) {
  EXPECT_EQ(points_where_flat_reads_differ(), 0);
}

TEST(Stencils, LaplacianOfQuadraticsIsExact) { check_laplacian_of_quadratics_is_exact(); }

// Fills ghosts of periodic fields on this single-rank block.
void wrap(const Block& b, std::vector<Field> fields) {
  eddy::parallel::Context context(MPI_COMM_SELF);
  eddy::parallel::HaloExchange(context, b.decomp, b.shape, std::move(fields), 1, eddy::parallel::Transport::mpi)
      .exchange();
}

TEST(Stencils, DivergenceOfGradientIsThePoissonLaplacian) {
  for (int dim : {2, 3}) {
    const Block b = make_block(dim, true);
    const Field phi = sample(b, {0, 0, 0}, [](Real x, Real y, Real z) {
      return std::sin(7.1 * x + 0.3) * std::cos(3.3 * y) + std::sin(11.0 * z + x * y);
    });
    wrap(b, {phi});
    auto state = eddy::fields::FlowState::allocate(b.shape);
    // u = 0 - (-1) grad(phi) = grad(phi)
    eddy::operators::subtract_pressure_gradient(state, phi, -1, b.grid, {});
    wrap(b, {state.u, state.v, state.w});
    const Field div = eddy::fields::make_field("div", b.shape), lap = eddy::fields::make_field("lap", b.shape);
    eddy::operators::compute_divergence(state, div, b.grid, 1);
    // The Poisson residual with a zero right-hand side: -L(phi).
    eddy::solver::PoissonLevel level;
    level.decomp = b.decomp;
    level.shape = b.shape;
    level.spacing = b.grid.spacing;
    const Field zero = eddy::fields::make_field("zero", b.shape);
    eddy::solver::residual(lap, phi, zero, level);
    auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), div);
    auto l = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lap);
    double worst = 0, scale = 0;
    for (int k = 1; k <= b.shape.cells[2]; ++k)
      for (int j = 1; j <= b.shape.cells[1]; ++j)
        for (int i = 1; i <= b.shape.cells[0]; ++i) {
          worst = std::max<double>(worst, std::abs(d(i, j, k) + l(i, j, k)));
          scale = std::max<double>(scale, std::abs(l(i, j, k)));
        }
    EXPECT_GT(scale, 1.0);
    EXPECT_LT(worst, eddy::testing::round_off(1e-12, 1e-6) * scale) << dim << "D";
  }
}

// Largest |div(u)| over the block's owned cells.
Real max_abs_divergence(const Block& b, const eddy::fields::FlowState& state) {
  const Field div = eddy::fields::make_field("div", b.shape);
  eddy::operators::compute_divergence(state, div, b.grid, 1);
  Real largest = 0;
  Kokkos::parallel_reduce(
      "test::max_divergence", eddy::grid::owned_cells(b.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& m) {
        if (Kokkos::fabs(div(i, j, k)) > m) m = Kokkos::fabs(div(i, j, k));
      },
      Kokkos::Max<Real>(largest));
  return largest;
}

// Sum over the faces of u . advection(u): zero for the central scheme on a divergence-free periodic field, negative
// for upwind. The field is the discrete curl of a random potential on the edges, so its divergence is exactly zero.
template <class Flux>
double energy_production(int dim) {
  const Block b = make_block(dim, true);
  auto potential = eddy::fields::FlowState::allocate(b.shape);  // components of the potential on the yz, xz, xy edges
  auto host_fill = [&](Field f, int c) {
    auto h = Kokkos::create_mirror_view(f);
    for (int k = 0; k < b.shape.extent(2); ++k)
      for (int j = 0; j < b.shape.extent(1); ++j)
        for (int i = 0; i < b.shape.extent(0); ++i) h(i, j, k) = eddy::face_hash(i + 100 * j + 10000 * k, 7, c);
    Kokkos::deep_copy(f, h);
  };
  host_fill(potential.u, 0);
  host_fill(potential.v, 1);
  host_fill(potential.w, 2);
  wrap(b, {potential.u, potential.v, potential.w});
  auto state = eddy::fields::FlowState::allocate(b.shape);
  const Field ax = potential.u, ay = potential.v, az = potential.w, u = state.u, v = state.v, w = state.w;
  const auto inv = b.grid.inv;
  const bool three_d = b.grid.three_d;
  Kokkos::parallel_for(
      "test::curl", eddy::grid::owned_cells(b.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        u(i, j, k) = (az(i, j, k) - az(i, j - 1, k)) * inv.y;
        v(i, j, k) = -(az(i, j, k) - az(i - 1, j, k)) * inv.x;
        if (three_d) {
          u(i, j, k) -= (ay(i, j, k) - ay(i, j, k - 1)) * inv.z;
          v(i, j, k) += (ax(i, j, k) - ax(i, j, k - 1)) * inv.z;
          w(i, j, k) = (ay(i, j, k) - ay(i - 1, j, k)) * inv.x - (ax(i, j, k) - ax(i, j - 1, k)) * inv.y;
        }
      });
  wrap(b, {u, v, w});
  EXPECT_LT(max_abs_divergence(b, state), eddy::testing::round_off(1e-11, 1e-4));
  Real production = 0, norm = 0;
  Kokkos::parallel_reduce(
      "test::energy_production", eddy::grid::owned_cells(b.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& sum, Real& magnitude) {
        using namespace eddy::operators;
        const Real au = advection_u<Flux>(u, v, w, i, j, k, inv, three_d);
        const Real av = advection_v<Flux>(u, v, w, i, j, k, inv, three_d);
        const Real aw = three_d ? advection_w<Flux>(u, v, w, i, j, k, inv) : Real(0);
        sum += u(i, j, k) * au + v(i, j, k) * av + w(i, j, k) * aw;
        magnitude += Kokkos::fabs(u(i, j, k) * au) + Kokkos::fabs(v(i, j, k) * av) + Kokkos::fabs(w(i, j, k) * aw);
      },
      production, norm);
  EXPECT_GT(norm, 1.0);
  return production / norm;
}

// The largest difference between advection_of_all and each component's own advection over the owned faces of a field
// of random values, relative to the largest advection term.
template <class Flux>
double advection_of_all_difference(int dim) {
  const Block b = make_block(dim, true);
  auto state = eddy::fields::FlowState::allocate(b.shape);
  const Field u = state.u, v = state.v, w = state.w;
  int c = 0;
  for (const Field& f : {u, v, w}) {
    auto h = Kokkos::create_mirror_view(f);
    for (int k = 0; k < b.shape.extent(2); ++k)
      for (int j = 0; j < b.shape.extent(1); ++j)
        for (int i = 0; i < b.shape.extent(0); ++i) h(i, j, k) = eddy::face_hash(i + 100 * j + 10000 * k, 11, c) - 0.5;
    Kokkos::deep_copy(f, h);
    ++c;
  }
  const auto inv = b.grid.inv;
  const bool three_d = b.grid.three_d;
  Real difference = 0, magnitude = 0;
  Kokkos::parallel_reduce(
      "test::advection_of_all", eddy::grid::owned_cells(b.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& worst) {
        using namespace eddy::operators;
        const FaceTerms all = advection_of_all<Flux>(u, v, w, i, j, k, inv, three_d);
        const Real aw = three_d ? advection_w<Flux>(u, v, w, i, j, k, inv) : Real(0);
        worst = Kokkos::fmax(worst, Kokkos::fabs(all.u - advection_u<Flux>(u, v, w, i, j, k, inv, three_d)));
        worst = Kokkos::fmax(worst, Kokkos::fabs(all.v - advection_v<Flux>(u, v, w, i, j, k, inv, three_d)));
        worst = Kokkos::fmax(worst, Kokkos::fabs(all.w - aw));
      },
      Kokkos::Max<Real>(difference));
  Kokkos::parallel_reduce(
      "test::advection_magnitude", eddy::grid::owned_cells(b.shape),
      KOKKOS_LAMBDA(int i, int j, int k, Real& largest) {
        using namespace eddy::operators;
        largest = Kokkos::fmax(largest, Kokkos::fabs(advection_u<Flux>(u, v, w, i, j, k, inv, three_d)));
        largest = Kokkos::fmax(largest, Kokkos::fabs(advection_v<Flux>(u, v, w, i, j, k, inv, three_d)));
        if (three_d) largest = Kokkos::fmax(largest, Kokkos::fabs(advection_w<Flux>(u, v, w, i, j, k, inv)));
      },
      Kokkos::Max<Real>(magnitude));
  EXPECT_GT(magnitude, 0.1) << dim << "D";
  return difference / magnitude;
}

TEST(Stencils, AdvectionOfAllComponentsEqualsEachComponentsOwn) {
  for (int dim : {2, 3}) {
    EXPECT_LT(advection_of_all_difference<CentralFlux>(dim), 1e-14) << dim << "D, central";
    EXPECT_LT(advection_of_all_difference<UpwindFlux>(dim), 1e-14) << dim << "D, upwind";
  }
}

TEST(Stencils, CentralAdvectionConservesEnergyAndUpwindDissipates) {
  for (int dim : {2, 3}) {
    EXPECT_LT(std::abs(energy_production<CentralFlux>(dim)), eddy::testing::round_off(1e-13, 1e-6)) << dim << "D";
    EXPECT_LT(energy_production<UpwindFlux>(dim), -1e-3) << dim << "D";
  }
}

}  // namespace
