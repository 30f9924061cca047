// `eddy bench stencil`: the 7-point residual r = b - L(x) (two reads, one write: 24 B/cell at best), the Laplacian
// apply (one read, one write: 16 B/cell), the multigrid transfers (17 B/cell with the coarse level's eighth) and one
// red-black Gauss-Seidel sweep, each against the fastest streaming kernel with its mix over the same cell count: a
// triad a = b + s c, a copy a = b, or a copy or two reads with a coarse value read or written per eight cells.
#include "bench/bench_support.hpp"
#include "bench/kernel_table.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "grid/cell_loops.hpp"
#include "grid/index_ranges.hpp"
#include "grid/pair_columns.hpp"
#include "parallel/reducer.hpp"
#include "solver/laplacian.hpp"
#include "solver/pair_column_choice.hpp"
#include "solver/poisson_kernels.hpp"
#include "solver/red_black.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

namespace eddy::bench {
namespace {

constexpr Mix kTriadMix{2, 1}, kCopyMix{1, 1}, kProlongationMix{1.125, 1}, kRestrictionMix{2, 0.125};

/// The residual with each thread marching `chunk` cells along z (grid/cell_loops.hpp).
void residual_z_march(Field r, Field x, Field b, const solver::PoissonLevel& level, int chunk) {
  const auto w = level.weights();
  const int g = level.shape.ghost;
  const auto& n = level.shape.cells;
  grid::for_each_cell_z_march(
      "bench::residual_z_march", {g, g, g}, {g + n[0], g + n[1], g + n[2]}, chunk,
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - solver::laplacian_at(x, i, j, k, w); });
}

/// The residual reading x and b through const random-access views (the read-only data cache on GPUs).
void residual_read_only(Field r, Field x_field, Field b_field, const solver::PoissonLevel& level) {
  using ReadOnly =
      Kokkos::View<const Real***, Kokkos::LayoutLeft, MemSpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  const ReadOnly x = x_field, b = b_field;
  const auto w = level.weights();
  Kokkos::parallel_for(
      "bench::residual_read_only", grid::owned_cells(level.shape), KOKKOS_LAMBDA(int i, int j, int k) {
        const Real neighbours = w.x * (x(i - 1, j, k) + x(i + 1, j, k)) + w.y * (x(i, j - 1, k) + x(i, j + 1, k)) +
                                w.z * (x(i, j, k - 1) + x(i, j, k + 1));
        r(i, j, k) = b(i, j, k) - (neighbours + w.diagonal() * x(i, j, k));
      });
}

/// The residual over the flat allocation: one thread per point of the span from the first to the last owned cell,
/// ghosts skipped, neighbours at flat offsets (+-1, +-sy, +-sz), as a code generator for flat tensors would do it.
void residual_flat(Field r_field, Field x_field, Field b_field, const solver::PoissonLevel& level) {
  const auto w = level.weights();
  const int g = level.shape.ghost, nx = level.shape.cells[0], ny = level.shape.cells[1];
  const int sy = static_cast<int>(x_field.stride(1)), sz = static_cast<int>(x_field.stride(2));
  const long long first = g + static_cast<long long>(sy) * g + static_cast<long long>(sz) * g;
  const long long last = first + (nx - 1) + static_cast<long long>(sy) * (ny - 1) +
                         static_cast<long long>(sz) * (level.shape.cells[2] - 1);
  const Real* __restrict__ x = x_field.data();
  const Real* __restrict__ b = b_field.data();
  Real* __restrict__ r = r_field.data();
  Kokkos::parallel_for(
      "bench::residual_flat", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(first, last + 1),
      KOKKOS_LAMBDA(long long p) {
        const long long plane = p % sz;
        const int j = static_cast<int>(plane / sy), i = static_cast<int>(plane % sy);
        if (i < g || i >= g + nx || j < g || j >= g + ny) return;
        const Real neighbours =
            w.x * (x[p - 1] + x[p + 1]) + w.y * (x[p - sy] + x[p + sy]) + w.z * (x[p - sz] + x[p + sz]);
        r[p] = b[p] - (neighbours + w.diagonal() * x[p]);
      });
}

/// The residual over the 3D tiled policy (what every kernel used before the owned-span loop).
void residual_tiled(Field r, Field x, Field b, const solver::PoissonLevel& level) {
  const auto w = level.weights();
  Kokkos::parallel_for(
      "bench::residual_tiled", grid::owned_cells(level.shape),
      KOKKOS_LAMBDA(int i, int j, int k) { r(i, j, k) = b(i, j, k) - solver::laplacian_at(x, i, j, k, w); });
}

/// One colour of red-black Gauss-Seidel over the owned span, the other colour's threads idle (periodic box: no
/// physical faces to fold in).
void red_black_span(Field x, Field b, const solver::PoissonLevel& level, int colour) {
  const auto w = level.weights();
  const int g = level.shape.ghost;
  const auto& o = level.decomp.offset;
  const int parity = (colour + o[0] + o[1] + o[2]) & 1;
  grid::for_each_owned_cell(
      "bench::rbgs_span", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        if (((i + j + k - 3 * g + parity) & 1) != 0) return;
        x(i, j, k) = (b(i, j, k) - solver::laplacian_neighbours(x, i, j, k, w)) / w.diagonal();
      });
}

/// One colour of red-black Gauss-Seidel over the colour's cells with the 3D tiling (the production sweep before its
/// 1D loop; periodic box: no physical faces to fold in).
void red_black_tiled(Field x, Field b, const solver::PoissonLevel& level, int colour) {
  const auto w = level.weights();
  const int g = level.shape.ghost, nx = level.shape.cells[0];
  const auto& o = level.decomp.offset;
  const int parity = (colour + o[0] + o[1] + o[2]) & 1;
  Kokkos::parallel_for(
      "bench::rbgs_tiled", grid::box({0, 0, 0}, {(nx + 1) / 2, level.shape.cells[1], level.shape.cells[2]}),
      KOKKOS_LAMBDA(int h, int lj, int lk) {
        const int li = 2 * h + ((parity + lj + lk) & 1);
        if (li >= nx) return;
        const int i = li + g, j = lj + g, k = lk + g;
        x(i, j, k) = (b(i, j, k) - solver::laplacian_neighbours(x, i, j, k, w)) / w.diagonal();
      });
}

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

/// The Laplacian apply (or, with b, the residual) with one thread per point of the owned span: the GPU loop before
/// the pair loop.
void laplacian_by_cells(Field out, Field x, Field b, const solver::PoissonLevel& level) {
  const auto w = level.weights();
  const bool residual = b.data() != nullptr;
  grid::for_each_owned_cell(
      "bench::laplacian_by_cells", level.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        const Real lap = solver::laplacian_at(x, i, j, k, w);
        out(i, j, k) = residual ? b(i, j, k) - lap : lap;
      });
}

}  // namespace

int run_stencil_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"n", "128"}, {"reps", "20"}}, "stencil");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n", 3));
  const int reps = static_cast<int>(options.integer("reps"));
  parallel::Reducer reducer(context, config::CommBackend::automatic);

  solver::PoissonLevel level;
  level.decomp = grid::decompose(periodic_unit_cube(n), context.comm());
  level.shape = fields::local_shape(level.decomp, 1);
  level.spacing = {1.0 / n, 1.0 / n, 1.0 / n};
  level.faces.fill(solver::PressureBoundary::periodic);
  const long long cells = level.decomp.local_cell_count();

  Field x = fields::make_field("bench::x", level.shape), b = fields::make_field("bench::b", level.shape),
        r = fields::make_field("bench::r", level.shape);
  fill_random(x, context.rank());
  fill_random(b, context.rank() + 1000);
  // The column length of the pair loops, chosen as a run chooses it (EDDY_PAIR_PLANES overrides).
  const auto columns = solver::choose_pair_columns(r, x, level.shape, level.weights());
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
  // Every form of the residual and the Laplacian apply must compute the production kernel's field (poisoned
  // beforehand, so an unwritten cell shows) before its time means anything.
  Field r_form = fields::make_field("bench::r_form", level.shape);
  const auto check_form = [&](const char* name, bool residual, const std::function<void()>& form) {
    Kokkos::deep_copy(r, Real(-7));
    Kokkos::deep_copy(r_form, Real(-7));
    if (residual) {
      solver::residual(r, x, b, level);
    } else {
      solver::apply_laplacian(r, x, level.shape, level.spacing, 3);
    }
    form();
    require(max_difference(r, r_form) < 1e-9 * n * n, std::string("bench stencil: differs from production: ") + name);
  };
  rows.push_back(
      {"residual (production)", kTriadMix, time_kernel([&] { solver::residual(r, x, b, level); }, reps, reducer)});
  check_form("one cell per thread", true, [&] { laplacian_by_cells(r_form, x, b, level); });
  rows.push_back({"residual, one cell per thread", kTriadMix,
                  time_kernel([&] { laplacian_by_cells(r_form, x, b, level); }, reps, reducer)});
  check_form("3D tiling", true, [&] { residual_tiled(r_form, x, b, level); });
  rows.push_back(
      {"residual, 3D tiling", kTriadMix, time_kernel([&] { residual_tiled(r_form, x, b, level); }, reps, reducer)});
  check_form("read-only views", true, [&] { residual_read_only(r_form, x, b, level); });
  rows.push_back({"residual, read-only views", kTriadMix,
                  time_kernel([&] { residual_read_only(r_form, x, b, level); }, reps, reducer)});
  check_form("flat span", true, [&] { residual_flat(r_form, x, b, level); });
  rows.push_back(
      {"residual, flat span", kTriadMix, time_kernel([&] { residual_flat(r_form, x, b, level); }, reps, reducer)});
  for (const int chunk : {4, 16, 64}) {
    static const char* names[] = {"residual, z-march 4", "residual, z-march 16", "residual, z-march 64"};
    const char* name = names[chunk == 4 ? 0 : chunk == 16 ? 1 : 2];
    check_form(name, true, [&] { residual_z_march(r_form, x, b, level, chunk); });
    rows.push_back(
        {name, kTriadMix, time_kernel([&] { residual_z_march(r_form, x, b, level, chunk); }, reps, reducer)});
  }
  rows.push_back({"laplacian apply (production)", kCopyMix,
                  time_kernel([&] { solver::apply_laplacian(r, x, level.shape, level.spacing, 3); }, reps, reducer)});
  check_form("laplacian, one cell per thread", false, [&] { laplacian_by_cells(r_form, x, Field(), level); });
  rows.push_back({"laplacian apply, one cell/thread", kCopyMix,
                  time_kernel([&] { laplacian_by_cells(r_form, x, Field(), level); }, reps, reducer)});
  // The prolongation x += P(coarse x) from the level coarsened by two (16 B/cell for the fine field, one coarse value
  // per eight cells besides): the production form (columns of pairs on GPUs) must add what the parent-pairs form
  // adds before either is timed.
  {
    const Int3 by_two{2, 2, 2};
    const solver::PoissonLevel coarse = solver::coarsen(level, by_two);
    Field coarse_x = fields::make_field("bench::coarse_x", coarse.shape);
    fill_random(coarse_x, context.rank() + 2000);
    Kokkos::deep_copy(r, x);
    Kokkos::deep_copy(r_form, x);
    solver::prolong_add(r, coarse_x, level, coarse, by_two);
    solver::prolong_add_by_parent_pairs(r_form, coarse_x, level, coarse, 2, 2);
    require(max_difference(r, r_form) < 1e-12, "bench stencil: the prolongation's forms differ");
    if (grid::fits_cell_pairs(level.shape, {r_form})) {
      Kokkos::deep_copy(r_form, x);
      solver::prolong_add_by_columns(r_form, coarse_x, level, coarse, by_two, false);
      require(max_difference(r, r_form) < 1e-12, "bench stencil: the prolongation by columns of one row differs");
    }
    // The restriction of the residual b - L(x) to the coarse right-hand side (two fine reads per cell, one coarse
    // write per eight), alone as in a V-cycle, and with the check's sums as at the top of each solve.
    Field coarse_b = fields::make_field("bench::coarse_b", coarse.shape),
          coarse_b_form = fields::make_field("bench::coarse_b_form", coarse.shape);
    solver::restrict_residual(coarse_b, x, b, level, coarse, by_two);
    solver::restrict_residual_by_cells(coarse_b_form, x, b, level, coarse, by_two);
    require(max_difference(coarse_b, coarse_b_form) < 1e-9 * n * n, "bench stencil: the restriction's forms differ");
    rows.push_back(
        {"restriction (production)", kRestrictionMix,
         time_kernel([&] { solver::restrict_residual(coarse_b, x, b, level, coarse, by_two); }, reps, reducer)});
    rows.push_back({"restriction, coarse cells", kRestrictionMix,
                    time_kernel([&] { solver::restrict_residual_by_cells(coarse_b_form, x, b, level, coarse, by_two); },
                                reps, reducer)});
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
    if (grid::fits_cell_pairs(level.shape, {r_form})) {
      rows.push_back(
          {"prolongation, columns of one row", kProlongationMix,
           time_kernel([&] { solver::prolong_add_by_columns(r_form, coarse_x, level, coarse, by_two, false); }, reps,
                       reducer)});
    }
    rows.push_back({"prolongation, parent pairs", kProlongationMix,
                    time_kernel([&] { solver::prolong_add_by_parent_pairs(r_form, coarse_x, level, coarse, 2, 2); },
                                reps, reducer)});
  }
  // One red-black sweep is both colours, red first.
  const auto time_both_colours = [&](const std::function<void(int)>& colour_sweep) {
    return time_kernel(
        [&] {
          colour_sweep(0);
          colour_sweep(1);
        },
        reps, reducer);
  };
  // Production sweeps over-relax by the deck's default factor; the span and tiling variants below are plain
  // Gauss-Seidel, checked against the colour passes at factor 1.
  const Real omega = config::PoissonConfig{}.relaxation;
  rows.push_back({"rbgs sweep, colour passes", kTriadMix,
                  time_both_colours([&](int c) { solver::red_black_sweep(x, b, level, c, omega); })});

  // The span form of red-black Gauss-Seidel must update as the colour passes (to round-off) before it is timed. Both
  // start from valid ghosts and exchange them after each colour: the passes read the owned cells that a periodic wrap
  // onto the block mirrors, the span form reads the ghosts.
  solver::GhostFiller ghosts(context, level, config::CommBackend::automatic);
  ghosts.fill(x);
  Field x_span = fields::make_field("bench::x_span", level.shape);
  Kokkos::deep_copy(x_span, x);
  for (int c = 0; c < 2; ++c) {
    solver::red_black_sweep(x, b, level, c, 1);
    ghosts.exchange(x);
    red_black_span(x_span, b, level, c);
    ghosts.exchange(x_span);
  }
  require(max_difference(x, x_span) < 1e-12, "bench stencil: the span red-black sweep differs from the colour passes");
  rows.push_back(
      {"rbgs sweep, 3D tiling", kTriadMix, time_both_colours([&](int c) { red_black_tiled(x_span, b, level, c); })});
  rows.push_back(
      {"rbgs sweep, owned span", kTriadMix, time_both_colours([&](int c) { red_black_span(x_span, b, level, c); })});
  // The fused sweep (one kernel into a second field, then the shared faces; tests/poisson/test_red_black.cpp checks
  // that it equals the colour passes). Its exchange between the two kernels is not timed, as for the passes above.
  const auto time_fused = [&](solver::SweepTile tile, int planes) {
    const auto sweep = [&] {
      solver::fused_sweep_interior(x_span, x, b, level, 0, omega, planes, tile);
      solver::sweep_shared_faces(x_span, x, b, level, 1, omega);
    };
    return time_kernel(sweep, reps, reducer);
  };
  for (const solver::SweepTile tile : solver::sweep_tiles) {
    const std::string name = std::string("rbgs sweep, fused ") + solver::describe(tile) +
                             (tile == solver::SweepTile::x64_y8_phased ? " (GPU)" : "");
    rows.push_back({name, kTriadMix, time_fused(tile, 0)});
  }
  // The default form with 32 z planes per team, twice its own choice at 512^3.
  rows.push_back(
      {"rbgs sweep, fused 64x8 phased, 32 planes", kTriadMix, time_fused(solver::SweepTile::x64_y8_phased, 32)});

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
    if (columns) std::printf("pair loops: %s\n", columns->describe().c_str());
    print_kernel_table(rows, cells, 42);
    std::printf(
        "floor: the fastest streaming kernel with the row's mix (24 B/cell: the triad, 16: the copy, 17: the copy or "
        "update with a coarse read per eight cells (prolongation), two reads with a coarse write per eight "
        "(restriction))\n");
  }
  return 0;
}

}  // namespace eddy::bench
