// `eddy bench stencil`: the production forms of the Poisson kernels, each against the fastest streaming kernel with
// its mix over the same cell count: the 7-point residual r = b - L(x) (two reads, one write: 24 B/cell at best) and
// the Laplacian apply of its pair form (one read, one write: 16 B/cell) against a triad a = b + s c and a copy a = b,
// the multigrid transfers (17 B/cell with the coarse level's eighth) against a copy or two reads with a coarse value
// read or written per eight cells, and one red-black Gauss-Seidel sweep against the triad. The transfers' portable
// forms are timed beside their GPU forms.
#include "bench/bench_support.hpp"
#include "bench/kernel_table.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "grid/index_ranges.hpp"
#include "grid/pair_columns.hpp"
#include "parallel/reducer.hpp"
#include "solver/laplacian.hpp"
#include "solver/prolongation.hpp"
#include "solver/red_black.hpp"
#include "solver/restriction.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace eddy::bench {
namespace {

constexpr Mix kTriadMix{2, 1}, kCopyMix{1, 1}, kProlongationMix{1.125, 1}, kRestrictionMix{2, 0.125};

/// a = b + s c: two reads and one write per cell, the streaming floor of the residual.
void triad(Buffer a, Buffer b, Buffer c, Real s) {
  Kokkos::parallel_for(
      "bench::triad", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(long long i) { a(i) = b(i) + s * c(i); });
}

/// a = b: one read and one write per cell, the streaming floor of the Laplacian apply.
void copy(Buffer a, Buffer b) {
  Kokkos::parallel_for(
      "bench::copy", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)), KOKKOS_LAMBDA(long long i) { a(i) = b(i); });
}

/// The triad (c != nullptr) or the copy with a pair of values per thread, as the pair loops of the stencils load
/// them; the buffers must have an even length.
void stream_pairs(Buffer a_buffer, Buffer b_buffer, const Real* c_values, Real s) {
  const auto* b = reinterpret_cast<const RealPair*>(b_buffer.data());
  const auto* c = reinterpret_cast<const RealPair*>(c_values);
  auto* a = reinterpret_cast<RealPair*>(a_buffer.data());
  Kokkos::parallel_for(
      "bench::stream_pairs", Range(0, static_cast<int>(a_buffer.extent(0) / 2)), KOKKOS_LAMBDA(int q) {
        RealPair v = b[q];
        if (c != nullptr) {
          const RealPair w = c[q];
          v.even += s * w.even;
          v.odd += s * w.odd;
        }
        a[q] = v;
      });
}

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
constexpr bool kWarpLanes = true;
#else
constexpr bool kWarpLanes = false;  // a host team's threads are cores: no lanes to share a coarse value
#endif

/// out = in + s coarse[cell / 8] by pairs of values (pair q takes coarse value q / 4); `out` may be `in`: the streaming
/// floor of the prolongation, which adds one coarse value to eight fine cells in place.
void stream_with_coarse_read(Buffer out_buffer, Buffer in_buffer, Buffer coarse_buffer, Real s) {
  const auto* in = reinterpret_cast<const RealPair*>(in_buffer.data());
  auto* out = reinterpret_cast<RealPair*>(out_buffer.data());
  const Real* coarse = coarse_buffer.data();
  Kokkos::parallel_for(
      "bench::stream_with_coarse_read", Range(0, static_cast<int>(out_buffer.extent(0) / 2)), KOKKOS_LAMBDA(int q) {
        RealPair v = in[q];
        const Real add = s * coarse[q / 4];
        v.even += add;
        v.odd += add;
        out[q] = v;
      });
}

/// coarse[m] = s * (sum of b - c over cells 8 m .. 8 m + 7): the streaming floor of the restriction (two fine reads
/// per cell, one coarse write per eight). A thread per coarse value reads its cells one by one or by pairs; with
/// `lanes`, four lanes of a warp read one pair each (consecutive lanes, consecutive pairs) and sum by shuffles.
void stream_with_coarse_write(Buffer coarse_buffer, Buffer b_buffer, Buffer c_buffer, Real s, bool pairs, bool lanes) {
  const Real *b = b_buffer.data(), *c = c_buffer.data();
  const auto *b_pairs = reinterpret_cast<const RealPair*>(b), *c_pairs = reinterpret_cast<const RealPair*>(c);
  Real* coarse = coarse_buffer.data();
  const int count = static_cast<int>(coarse_buffer.extent(0));
  if (lanes) {
    using Teams = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<int>>;
    constexpr int per_team = 64;
    const int vector = std::min(4, Teams::vector_length_max());
    Kokkos::parallel_for(
        "bench::stream_with_coarse_write_lanes", Teams((count + per_team - 1) / per_team, per_team, vector),
        KOKKOS_LAMBDA(const Teams::member_type& team) {
          const int m = team.league_rank() * per_team + team.team_rank();
          if (m >= count) return;
          Real sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, 4),
              [&](int lane, Real& part) {
                const RealPair x = b_pairs[4 * m + lane], y = c_pairs[4 * m + lane];
                part += (x.even - y.even) + (x.odd - y.odd);
              },
              sum);
          Kokkos::single(Kokkos::PerThread(team), [&] { coarse[m] = s * sum; });
        });
    return;
  }
  Kokkos::parallel_for(
      "bench::stream_with_coarse_write", Range(0, count), KOKKOS_LAMBDA(int m) {
        Real sum = 0;
        if (pairs) {
          for (int q = 4 * m; q < 4 * m + 4; ++q)
            sum += (b_pairs[q].even - c_pairs[q].even) + (b_pairs[q].odd - c_pairs[q].odd);
        } else {
          for (int e = 8 * m; e < 8 * m + 8; ++e) sum += b[e] - c[e];
        }
        coarse[m] = s * sum;
      });
}

}  // namespace

int run_stencil_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"n", "128"}, {"reps", "20"}, {"pair_planes", "8"}}, "stencil");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n", 3));
  const int reps = static_cast<int>(options.integer("reps"));
  parallel::Reducer reducer(context, parallel::choose_reduction_transport());

  solver::PoissonLevel level;
  level.decomp = grid::decompose(periodic_unit_cube(n), context.comm());
  level.shape = fields::local_shape(level.decomp, 1, options.pair_planes());
  level.spacing = {Real(1.0 / n), Real(1.0 / n), Real(1.0 / n)};
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
  std::vector<KernelRow> rows;
  rows.push_back({"triad a = b + s c", kTriadMix, time_kernel([&] { triad(ta, tb, tc, s); }, reps, reducer), true});
  rows.push_back({"copy a = b", kCopyMix, time_kernel([&] { copy(ta, tb); }, reps, reducer), true});
  // The transfers' floors: the copy and the in-place update with a coarse read per eight cells, and two reads with a
  // coarse write per eight.
  if (cells % 8 == 0) {
    Buffer coarse_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::coarse_values"), cells / 8);
    fill_random(coarse_values, context.rank() + 3000);
    rows.push_back({"copy and a coarse read", kProlongationMix,
                    time_kernel([&] { stream_with_coarse_read(ta, tb, coarse_values, s); }, reps, reducer), true});
    rows.push_back({"update and a coarse read", kProlongationMix,
                    time_kernel([&] { stream_with_coarse_read(ta, ta, coarse_values, s); }, reps, reducer), true});
    const struct {
      const char* name;
      bool pairs, lanes;
    } coarse_writes[] = {{"two reads, a coarse write", false, false},
                         {"two reads, a coarse write, pairs", true, false},
                         {"two reads, a coarse write, lanes", true, true}};
    for (const auto& form : coarse_writes) {
      if (form.lanes && !kWarpLanes) continue;
      rows.push_back({form.name, kRestrictionMix,
                      time_kernel([&] { stream_with_coarse_write(coarse_values, tb, tc, s, form.pairs, form.lanes); },
                                  reps, reducer),
                      true});
    }
    // The three forms sum the same cells: they must agree before their times mean anything.
    Real sums[3] = {0, 0, 0};
    for (int f = 0; f < (kWarpLanes ? 3 : 2); ++f) {
      stream_with_coarse_write(coarse_values, tb, tc, s, coarse_writes[f].pairs, coarse_writes[f].lanes);
      Kokkos::fence();
      Kokkos::parallel_reduce(
          "bench::coarse_values_sum", Range(0, static_cast<int>(cells / 8)),
          KOKKOS_LAMBDA(int m, Real& sum) { sum += coarse_values(m) * (1 + m % 7); }, sums[f]);
    }
    require(std::abs(sums[1] - sums[0]) <= 1e-9 * std::abs(sums[0]) &&
                (!kWarpLanes || std::abs(sums[2] - sums[0]) <= 1e-9 * std::abs(sums[0])),
            "bench stencil: the coarse-write streams differ");
  }
  if (cells % 2 == 0) {
    rows.push_back({"triad, pairs of values", kTriadMix,
                    time_kernel([&] { stream_pairs(ta, tb, tc.data(), s); }, reps, reducer), true});
    rows.push_back({"copy, pairs of values", kCopyMix,
                    time_kernel([&] { stream_pairs(ta, tb, nullptr, s); }, reps, reducer), true});
  }
  rows.push_back(
      {"residual (production)", kTriadMix, time_kernel([&] { solver::residual(r, x, b, level); }, reps, reducer)});
  // The Laplacian apply by the residual's pair form with no right-hand side, where that form fits the block.
  if (solver::fits_laplacian_pairs(level.shape, level.weights(), {r, x})) {
    rows.push_back(
        {"laplacian apply (pairs)", kCopyMix,
         time_kernel([&] { solver::laplacian_by_pairs(r, x, Field(), level.shape, level.weights()); }, reps, reducer)});
  }
  // The transfers from and to the level coarsened by two: the production forms (columns of pairs on GPUs) must give
  // what the portable forms give before either is timed.
  {
    const Int3 by_two{2, 2, 2};
    const solver::PoissonLevel coarse = solver::coarsen(level, by_two);
    Field coarse_x = fields::make_field("bench::coarse_x", coarse.shape);
    fill_random(coarse_x, context.rank() + 2000);
    Field r_portable = fields::make_field("bench::r_portable", level.shape);
    Kokkos::deep_copy(r, x);
    Kokkos::deep_copy(r_portable, x);
    solver::prolong_add(r, coarse_x, level, coarse, by_two);
    solver::prolong_add_by_parent_pairs(r_portable, coarse_x, level, coarse, 2, 2);
    require(max_difference(r, r_portable) < 1e-12, "bench stencil: the prolongation's forms differ");
    // The restriction of the residual b - L(x) to the coarse right-hand side (two fine reads per cell, one coarse
    // write per eight), alone as in a V-cycle, and with the check's sums as at the top of each solve.
    Field coarse_b = fields::make_field("bench::coarse_b", coarse.shape),
          coarse_b_portable = fields::make_field("bench::coarse_b_portable", coarse.shape);
    solver::restrict_residual(coarse_b, x, b, level, coarse, by_two);
    solver::restrict_residual_by_cells(coarse_b_portable, x, b, level, coarse, by_two);
    require(max_difference(coarse_b, coarse_b_portable) < 1e-9 * n * n,
            "bench stencil: the restriction's forms differ");
    rows.push_back(
        {"restriction (production)", kRestrictionMix,
         time_kernel([&] { solver::restrict_residual(coarse_b, x, b, level, coarse, by_two); }, reps, reducer)});
    rows.push_back(
        {"restriction, coarse cells", kRestrictionMix,
         time_kernel([&] { solver::restrict_residual_by_cells(coarse_b_portable, x, b, level, coarse, by_two); }, reps,
                     reducer)});
    const solver::CheckPartials partials("bench::partials", coarse.decomp.local_cell_count());
    Buffer sums("bench::sums", 3);
    rows.push_back({"restriction with check sums", kRestrictionMix,
                    time_kernel(
                        [&] {
                          solver::restrict_residual_with_sums(coarse_b, x, b, level, coarse, by_two, partials, sums,
                                                              reducer);
                        },
                        reps, reducer)});
    rows.push_back({"prolongation (production)", kProlongationMix,
                    time_kernel([&] { solver::prolong_add(r, coarse_x, level, coarse, by_two); }, reps, reducer)});
    rows.push_back({"prolongation, parent pairs", kProlongationMix,
                    time_kernel([&] { solver::prolong_add_by_parent_pairs(r_portable, coarse_x, level, coarse, 2, 2); },
                                reps, reducer)});
  }
  // One red-black sweep is both colours, red first, over-relaxed by the deck's default factor. The fused sweep writes
  // into a second field, then updates the shared faces (tests/poisson/test_red_black.cpp checks that it equals the
  // colour passes); its exchange between the two kernels is not timed, nor are the passes' exchanges.
  const Real omega = config::PoissonConfig{}.relaxation;
  rows.push_back({"rbgs sweep, colour passes", kTriadMix,
                  time_kernel(
                      [&] {
                        solver::red_black_sweep(x, b, level, 0, omega);
                        solver::red_black_sweep(x, b, level, 1, omega);
                      },
                      reps, reducer)});
  Field twin = fields::make_field("bench::twin", level.shape);
  rows.push_back({"rbgs sweep, fused 64x8 phased (GPU)", kTriadMix,
                  time_kernel(
                      [&] {
                        solver::fused_sweep_interior(twin, x, b, level, 0, omega);
                        solver::sweep_shared_faces(twin, x, b, level, 1, omega);
                      },
                      reps, reducer)});

  // Spot check: the triad wrote its output.
  Real a0 = 0;
  Kokkos::deep_copy(a0, Kokkos::subview(ta, 0));
  require(a0 != Real(-7), "bench stencil: the triad did not write its output");
  require_floors(rows, "stencil");

  if (context.rank() == 0) {
    std::printf(
        "stencil benchmark: %d^3 cells on %d rank(s), %lld cells per rank, %d reps (median, slowest rank), tile "
        "%lld,%lld,%lld\n",
        n, context.size(), cells, reps, static_cast<long long>(grid::stencil_tile()[0]),
        static_cast<long long>(grid::stencil_tile()[1]), static_cast<long long>(grid::stencil_tile()[2]));
    std::printf("pair loops: columns of up to %d planes\n", level.shape.pair_planes);
    print_kernel_table(rows, cells, 42);
    std::printf(
        "floor: the fastest streaming kernel with the row's mix (24 B/cell: the triad, 16: the copy, 17: the copy or "
        "update with a coarse read per eight cells (prolongation), two reads with a coarse write per eight "
        "(restriction))\n");
  }
  return 0;
}

}  // namespace eddy::bench
