// `eddy bench stencil`: the 7-point residual r = b - L(x) (two reads, one write: 24 B/cell at best), the Laplacian
// apply (16 B/cell) and one red-black Gauss-Seidel sweep against a triad a = b + s c over the same cell count.
#include "bench/bench_options.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "grid/index_ranges.hpp"
#include "parallel/reducer.hpp"
#include "solver/laplacian.hpp"
#include "solver/poisson_kernels.hpp"

#include <cstdio>
#include <functional>

namespace eddy::bench {
namespace {

struct Measurement {
  const char* name;
  double bytes_per_cell;
  double seconds;  // median over the repetitions, slowest rank
};

double time_kernel(const std::function<void()>& kernel, int reps, const parallel::Reducer& reducer) {
  for (int w = 0; w < 3; ++w) kernel();
  Kokkos::fence("bench::warm_up");
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer timer;
    kernel();
    Kokkos::fence("bench::rep");
    times.push_back(timer.seconds());
  }
  return reducer.max(median(times));
}

/// a = b + s c: two reads and one write per cell, the streaming floor of the residual.
void triad(Buffer a, Buffer b, Buffer c, Real s) {
  Kokkos::parallel_for(
      "bench::triad", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(long long i) { a(i) = b(i) + s * c(i); });
}

}  // namespace

int run_stencil_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const auto options = parse_options(args);
  const int n = int_option(options, "n", 128);
  const int reps = std::max(20, int_option(options, "reps", 20));
  parallel::Reducer reducer(context, config::CommBackend::automatic);

  grid::GlobalGrid global{3, {n, n, n}, {1, 1, 1}, {0, 0, 0}, {true, true, true}};
  solver::PoissonLevel level;
  level.decomp = grid::decompose(global, context.comm());
  level.shape = fields::local_shape(level.decomp, 1);
  level.spacing = {1.0 / n, 1.0 / n, 1.0 / n};
  level.faces.fill(solver::PressureBoundary::periodic);
  const long long cells = level.decomp.local_cell_count();

  Field x = fields::make_field("bench::x", level.shape), b = fields::make_field("bench::b", level.shape),
        r = fields::make_field("bench::r", level.shape);
  fill_random(x, context.rank());
  fill_random(b, context.rank() + 1000);
  Buffer ta(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::a"), cells),
      tb(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::b1"), cells),
      tc(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::c"), cells);
  fill_random(tb, context.rank());
  fill_random(tc, context.rank() + 1000);
  Kokkos::deep_copy(ta, Real(-7));  // poison: a triad that writes nothing shows up in the check below

  const Real s = 0.5;
  std::vector<Measurement> rows;
  rows.push_back({"triad a = b + s c (floor)", 24, time_kernel([&] { triad(ta, tb, tc, s); }, reps, reducer)});
  rows.push_back({"residual r = b - L x", 24, time_kernel([&] { solver::residual(r, x, b, level); }, reps, reducer)});
  rows.push_back({"laplacian apply r = L x", 16,
                  time_kernel([&] { solver::apply_laplacian(r, x, level.shape, level.spacing, 3); }, reps, reducer)});
  rows.push_back({"rbgs sweep (red + black)", 24,
                  time_kernel(
                      [&] {
                        solver::red_black_sweep(x, b, level, 0);
                        solver::red_black_sweep(x, b, level, 1);
                      },
                      reps, reducer)});

  // Spot check: the triad wrote its output.
  Real a0 = 0;
  Kokkos::deep_copy(a0, Kokkos::subview(ta, 0));
  require(a0 != Real(-7), "bench stencil: the triad did not write its output");

  if (context.rank() == 0) {
    std::printf("stencil benchmark: %d^3 cells on %d rank(s), %lld cells per rank, %d reps (median, slowest rank)\n", n,
                context.size(), cells, reps);
    std::printf("%-28s %10s %12s %10s %12s\n", "kernel", "B/cell", "time [ms]", "GB/s", "vs triad");
    const double floor_bandwidth = rows[0].bytes_per_cell * cells / rows[0].seconds;
    for (const auto& row : rows) {
      const double bandwidth = row.bytes_per_cell * cells / row.seconds;
      std::printf("%-28s %10.0f %12.4f %10.1f %12.2f\n", row.name, row.bytes_per_cell, 1e3 * row.seconds,
                  bandwidth / 1e9, bandwidth / floor_bandwidth);
    }
  }
  return 0;
}

}  // namespace eddy::bench
