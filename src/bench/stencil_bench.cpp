// `eddy bench stencil`: the 7-point residual r = b - L(x) (two reads, one write: 24 B/cell at best), the Laplacian
// apply (16 B/cell) and one red-black Gauss-Seidel sweep against a triad a = b + s c over the same cell count.
#include "bench/bench_support.hpp"
#include "bench/poisson_benchmarks.hpp"
#include "grid/cell_loops.hpp"
#include "grid/index_ranges.hpp"
#include "parallel/reducer.hpp"
#include "solver/laplacian.hpp"
#include "solver/poisson_kernels.hpp"
#include "solver/red_black.hpp"

#include <cstdio>
#include <functional>
#include <string>

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

/// Two neighbouring cells of a row, 16-byte aligned: one vector load or store on GPUs.
struct alignas(2 * sizeof(Real)) RealPair {
  Real even, odd;
};

/// The Laplacian apply (or, with b, the residual) with each thread taking the pair of cells (i, i + 1), i even, of a
/// row: the pair and its y and z neighbours as aligned pairs (the row and plane lengths must be even), the two x
/// neighbours as single values; pairs with a ghost write their owned cell alone.
void laplacian_pairs(Field out_field, Field x_field, const Real* b, const solver::PoissonLevel& level) {
  const auto w = level.weights();
  const auto span = grid::owned_span(level.shape);
  require(span.row % 2 == 0 && span.plane % 2 == 0, "bench stencil: the pair kernels need even row and plane lengths");
  const int sy = span.row, sz = span.plane;
  const Real* __restrict__ x = x_field.data();
  Real* __restrict__ out = out_field.data();
  Kokkos::parallel_for(
      "bench::laplacian_pairs", Range(span.first / 2, span.last / 2 + 1), KOKKOS_LAMBDA(int q) {
        const int p = 2 * q;
        int i, j, k;
        span.owned(p, i, j, k);
        if (j < span.ghost || j >= span.ghost + span.ny) return;
        const bool even_owned = i >= span.ghost, odd_owned = i + 1 < span.ghost + span.nx;
        const auto pair = [&](int o) { return *reinterpret_cast<const RealPair*>(x + o); };
        const RealPair c = pair(p), s = pair(p - sy), n = pair(p + sy), d = pair(p - sz), u = pair(p + sz);
        const Real west = x[p - 1], east = x[p + 2];
        RealPair r;
        r.even = w.x * (west + c.odd) + w.y * (s.even + n.even) + w.z * (d.even + u.even) + w.diagonal() * c.even;
        r.odd = w.x * (c.even + east) + w.y * (s.odd + n.odd) + w.z * (d.odd + u.odd) + w.diagonal() * c.odd;
        if (b != nullptr) {
          const RealPair rhs = *reinterpret_cast<const RealPair*>(b + p);
          r.even = rhs.even - r.even;
          r.odd = rhs.odd - r.odd;
        }
        if (even_owned && odd_owned) {
          *reinterpret_cast<RealPair*>(out + p) = r;
        } else if (even_owned) {
          out[p] = r.even;
        } else if (odd_owned) {
          out[p + 1] = r.odd;
        }
      });
}

/// A column-marching stencil form: threads in tiles of tx x ty columns of a plane, each marching `chunk` cells up z.
struct ColumnTiles {
  int tx, ty, chunk;
  const char* name;
};

/// The Laplacian apply (or, with b, the residual) with each thread marching a column of `chunk` cells up z: its z
/// neighbours stay in registers, `Ahead` planes beyond the next loaded in advance; the x and y neighbours are read
/// from the plane the tile's other threads load (L1 hits on GPUs). Consecutive threads form one tx x ty tile.
template <int Ahead, int MinBlocks = 0>
void laplacian_columns(Field out_field, Field x_field, const Real* b, const solver::PoissonLevel& level,
                       ColumnTiles tiles) {
  const auto w = level.weights();
  const int g = level.shape.ghost, nx = level.shape.cells[0], ny = level.shape.cells[1], nz = level.shape.cells[2];
  const int sy = static_cast<int>(x_field.stride(1)), sz = static_cast<int>(x_field.stride(2));
  const int top = static_cast<int>(x_field.extent(2)) - 1;
  const int tx = tiles.tx, ty = tiles.ty, chunk = tiles.chunk;
  const int tiles_x = (nx + tx - 1) / tx, tiles_y = (ny + ty - 1) / ty, chunks = (nz + chunk - 1) / chunk;
  const Real* __restrict__ x = x_field.data();
  Real* __restrict__ out = out_field.data();
  constexpr int depth = Ahead + 3;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, Kokkos::LaunchBounds<256, MinBlocks>>;
  Kokkos::parallel_for(
      "bench::laplacian_columns", Policy(0, tiles_x * tiles_y * chunks * tx * ty), KOKKOS_LAMBDA(int t) {
        const int lane = t % (tx * ty), tile = t / (tx * ty);
        const int rest = tile / tiles_x;
        const int i = g + (tile % tiles_x) * tx + lane % tx, j = g + (rest % tiles_y) * ty + lane / tx;
        if (i >= g + nx || j >= g + ny) return;
        const int k0 = g + (rest / tiles_y) * chunk, k1 = k0 + chunk < g + nz ? k0 + chunk : g + nz;
        const int column = i + sy * j;
        Real z[depth];
        for (int m = 0; m < depth - 1; ++m) z[m] = x[column + sz * (k0 - 1 + m)];
        for (int k = k0; k < k1; ++k) {
          const int ahead = k + 1 + Ahead < top ? k + 1 + Ahead : top;
          z[depth - 1] = x[column + sz * ahead];
          const int p = column + sz * k;
          Real lap =
              w.x * (x[p - 1] + x[p + 1]) + w.y * (x[p - sy] + x[p + sy]) + w.z * (z[0] + z[2]) + w.diagonal() * z[1];
          if (b != nullptr) lap = b[p] - lap;
          out[p] = lap;
          for (int m = 0; m < depth - 1; ++m) z[m] = z[m + 1];
        }
      });
}

/// The Laplacian apply (or, with b, the residual) with each thread taking `Cells` points of the owned span: with
/// `Apart` the points lie a 1/Cells of the span apart (independent streams, as the arrays of a triad), otherwise 32
/// points apart (the warp's next rows of 32 points). Every load of all the thread's points is issued before the first
/// store, so `Cells` times as many loads are in flight per thread as in the one-point loop.
template <int Cells, bool Apart>
void laplacian_multi(Field out_field, Field x_field, const Real* b, const solver::PoissonLevel& level) {
  const auto w = level.weights();
  const auto span = grid::owned_span(level.shape);
  const int sy = span.row, sz = span.plane;
  const int points = span.last - span.first + 1;
  const int per_thread_stride = Apart ? (points + Cells - 1) / Cells : 32;
  const int threads = Apart ? per_thread_stride : (points + 32 * Cells - 1) / (32 * Cells) * 32;
  const int first = span.first, last = span.last;
  const Real* __restrict__ x = x_field.data();
  Real* __restrict__ out = out_field.data();
  Kokkos::parallel_for(
      "bench::laplacian_multi", Range(0, threads), KOKKOS_LAMBDA(int q) {
        const int base = Apart ? first + q : first + (q / 32) * 32 * Cells + q % 32;
        Real result[Cells];
        bool owned[Cells];
        int at[Cells];
        for (int c = 0; c < Cells; ++c) {
          const int p0 = base + c * per_thread_stride;
          const int p = p0 <= last ? p0 : last;
          int i, j, k;
          owned[c] = p0 <= last && span.owned(p, i, j, k);
          at[c] = p;
          result[c] = w.x * (x[p - 1] + x[p + 1]) + w.y * (x[p - sy] + x[p + sy]) + w.z * (x[p - sz] + x[p + sz]) +
                      w.diagonal() * x[p];
          if (b != nullptr) result[c] = b[p] - result[c];
        }
        for (int c = 0; c < Cells; ++c) {
          if (owned[c]) out[at[c]] = result[c];
        }
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

/// Largest |a - b| over two fields.
Real max_difference(Field a, Field b) {
  Real diff = 0;
  Kokkos::parallel_reduce(
      "bench::max_difference", grid::box({0, 0, 0}, {int(a.extent(0)), int(a.extent(1)), int(a.extent(2))}),
      KOKKOS_LAMBDA(int i, int j, int k, Real& d) {
        const Real e = Kokkos::fabs(a(i, j, k) - b(i, j, k));
        if (e > d) d = e;
      },
      Kokkos::Max<Real>(diff));
  return diff;
}

/// a = b + s c: two reads and one write per cell, the streaming floor of the residual.
void triad(Buffer a, Buffer b, Buffer c, Real s) {
  Kokkos::parallel_for(
      "bench::triad", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)),
      KOKKOS_LAMBDA(long long i) { a(i) = b(i) + s * c(i); });
}

/// a = b: one read and one write per cell, the streaming kernel with the Laplacian apply's mix.
void copy(Buffer a, Buffer b) {
  Kokkos::parallel_for(
      "bench::copy", Kokkos::RangePolicy<ExecSpace>(0, a.extent(0)), KOKKOS_LAMBDA(long long i) { a(i) = b(i); });
}

}  // namespace

int run_stencil_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"n", "128"}, {"reps", "20"}}, "stencil");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n", 3));
  const int reps = static_cast<int>(options.integer("reps"));
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
  rows.push_back({"copy a = b", 16, time_kernel([&] { copy(ta, tb); }, reps, reducer)});
  rows.push_back({"residual (production)", 24, time_kernel([&] { solver::residual(r, x, b, level); }, reps, reducer)});
  // The z-marching residual must compute the same field as the tiled one before its time means anything.
  Field r_march = fields::make_field("bench::r_march", level.shape);
  solver::residual(r, x, b, level);
  residual_z_march(r_march, x, b, level, 16);
  require(max_difference(r, r_march) == 0, "bench stencil: the z-marching residual differs from the tiled one");
  rows.push_back(
      {"residual, 3D tiling", 24, time_kernel([&] { residual_tiled(r_march, x, b, level); }, reps, reducer)});
  residual_read_only(r_march, x, b, level);
  require(max_difference(r, r_march) < 1e-9 * n * n,
          "bench stencil: the read-only residual differs from the tiled one");
  rows.push_back(
      {"residual, read-only views", 24, time_kernel([&] { residual_read_only(r_march, x, b, level); }, reps, reducer)});
  residual_flat(r_march, x, b, level);
  require(max_difference(r, r_march) < 1e-9 * n * n, "bench stencil: the flat residual differs from the tiled one");
  rows.push_back({"residual, flat span", 24, time_kernel([&] { residual_flat(r_march, x, b, level); }, reps, reducer)});
  for (const int chunk : {4, 16, 64}) {
    static const char* names[] = {"residual, z-march 4", "residual, z-march 16", "residual, z-march 64"};
    rows.push_back({names[chunk == 4    ? 0
                          : chunk == 16 ? 1
                                        : 2],
                    24, time_kernel([&] { residual_z_march(r_march, x, b, level, chunk); }, reps, reducer)});
  }
  rows.push_back({"laplacian apply r = L x", 16,
                  time_kernel([&] { solver::apply_laplacian(r, x, level.shape, level.spacing, 3); }, reps, reducer)});
  if (grid::owned_span(level.shape).row % 2 == 0) {
    solver::residual(r, x, b, level);
    laplacian_pairs(r_march, x, b.data(), level);
    require(max_difference(r, r_march) < 1e-9 * n * n, "bench stencil: the pair residual differs");
    rows.push_back({"residual, pairs of cells", 24,
                    time_kernel([&] { laplacian_pairs(r_march, x, b.data(), level); }, reps, reducer)});
    solver::apply_laplacian(r, x, level.shape, level.spacing, 3);
    laplacian_pairs(r_march, x, nullptr, level);
    require(max_difference(r, r_march) < 1e-9 * n * n, "bench stencil: the pair Laplacian differs");
    rows.push_back({"laplacian apply, pairs of cells", 16,
                    time_kernel([&] { laplacian_pairs(r_march, x, nullptr, level); }, reps, reducer)});
  }
  {
    // Column-marching forms of the Laplacian apply and the residual, each checked against the production kernel.
    const ColumnTiles forms[] = {
        {32, 8, 32, "laplacian, columns 32x8 z32"},   {64, 4, 32, "laplacian, columns 64x4 z32"},
        {16, 16, 32, "laplacian, columns 16x16 z32"}, {128, 2, 32, "laplacian, columns 128x2 z32"},
        {32, 8, 8, "laplacian, columns 32x8 z8"},     {32, 8, 64, "laplacian, columns 32x8 z64"}};
    const auto column_row = [&](const ColumnTiles& form, int ahead, const Real* rhs, const char* name) {
      const auto apply = [&, form, ahead, rhs] {
        if (ahead == 0) laplacian_columns<0>(r_march, x, rhs, level, form);
        if (ahead == 1) laplacian_columns<1>(r_march, x, rhs, level, form);
        if (ahead == 2) laplacian_columns<2>(r_march, x, rhs, level, form);
        if (ahead == 3) laplacian_columns<1, 6>(r_march, x, rhs, level, form);
      };
      Kokkos::deep_copy(r, Real(-7));  // poison both: a cell either form leaves unwritten shows in the check
      Kokkos::deep_copy(r_march, Real(-7));
      if (rhs != nullptr) {
        solver::residual(r, x, b, level);
      } else {
        solver::apply_laplacian(r, x, level.shape, level.spacing, 3);
      }
      apply();
      require(max_difference(r, r_march) < 1e-9 * n * n, std::string("bench stencil: differs: ") + name);
      rows.push_back({name, rhs != nullptr ? 24.0 : 16.0, time_kernel(apply, reps, reducer)});
    };
    static const char* ahead_names[] = {"laplacian, columns 32x8 z32 +0", "laplacian, columns 32x8 z32 +2",
                                        "laplacian, columns 32x8 z32 r40"};
    column_row(forms[0], 0, nullptr, ahead_names[0]);
    for (const auto& form : forms) column_row(form, 1, nullptr, form.name);
    column_row(forms[0], 2, nullptr, ahead_names[1]);
    column_row(forms[0], 3, nullptr, ahead_names[2]);
    column_row(forms[0], 1, b.data(), "residual, columns 32x8 z32");
    column_row(forms[1], 1, b.data(), "residual, columns 64x4 z32");
  }
  {
    // Several points per thread, all loads before the stores, each form checked against the production kernel.
    struct MultiForm {
      void (*apply)(Field, Field, const Real*, const solver::PoissonLevel&);
      bool residual;
      const char* name;
    };
    const MultiForm forms[] = {{laplacian_multi<2, true>, false, "laplacian, 2 cells apart"},
                               {laplacian_multi<4, true>, false, "laplacian, 4 cells apart"},
                               {laplacian_multi<2, false>, false, "laplacian, 2 cells by 32"},
                               {laplacian_multi<4, false>, false, "laplacian, 4 cells by 32"},
                               {laplacian_multi<2, true>, true, "residual, 2 cells apart"},
                               {laplacian_multi<2, false>, true, "residual, 2 cells by 32"},
                               {laplacian_multi<4, false>, true, "residual, 4 cells by 32"}};
    for (const auto& form : forms) {
      const Real* rhs = form.residual ? b.data() : nullptr;
      Kokkos::deep_copy(r, Real(-7));
      Kokkos::deep_copy(r_march, Real(-7));
      if (form.residual) {
        solver::residual(r, x, b, level);
      } else {
        solver::apply_laplacian(r, x, level.shape, level.spacing, 3);
      }
      form.apply(r_march, x, rhs, level);
      require(max_difference(r, r_march) < 1e-9 * n * n, std::string("bench stencil: differs: ") + form.name);
      rows.push_back({form.name, form.residual ? 24.0 : 16.0,
                      time_kernel([&] { form.apply(r_march, x, rhs, level); }, reps, reducer)});
    }
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
  rows.push_back({"rbgs sweep, colour passes", 24,
                  time_both_colours([&](int c) { solver::red_black_sweep(x, b, level, c, omega); })});

  // The span form of red-black Gauss-Seidel must update as the colour passes (to round-off) before it is timed.
  Field x_span = fields::make_field("bench::x_span", level.shape);
  Kokkos::deep_copy(x_span, x);
  for (int c = 0; c < 2; ++c) solver::red_black_sweep(x, b, level, c, 1);
  for (int c = 0; c < 2; ++c) red_black_span(x_span, b, level, c);
  require(max_difference(x, x_span) < 1e-12, "bench stencil: the span red-black sweep differs from the colour passes");
  rows.push_back(
      {"rbgs sweep, 3D tiling", 24, time_both_colours([&](int c) { red_black_tiled(x_span, b, level, c); })});
  rows.push_back(
      {"rbgs sweep, owned span", 24, time_both_colours([&](int c) { red_black_span(x_span, b, level, c); })});
  // The fused sweep (one kernel into a second field, then the shared faces; tests/poisson/test_red_black.cpp checks
  // that it equals the colour passes). Its exchange between the two kernels is not timed, as for the passes above.
  struct FusedVariant {
    solver::SweepTile tile;
    const char* name;
  };
  using solver::SweepTile;
  for (const FusedVariant v : {FusedVariant{SweepTile::x64_y8, "rbgs sweep, fused 64x8 (GPU)"},
                               FusedVariant{SweepTile::x64_y4, "rbgs sweep, fused 64x4"},
                               FusedVariant{SweepTile::x64_y16, "rbgs sweep, fused 64x16"}}) {
    const auto sweep = [&] {
      solver::fused_sweep_interior(x_span, x, b, level, 0, omega, 0, v.tile);
      solver::sweep_shared_faces(x_span, x, b, level, 1, omega);
    };
    rows.push_back({v.name, 24, time_kernel(sweep, reps, reducer)});
  }

  // Spot check: the triad wrote its output.
  Real a0 = 0;
  Kokkos::deep_copy(a0, Kokkos::subview(ta, 0));
  require(a0 != Real(-7), "bench stencil: the triad did not write its output");

  if (context.rank() == 0) {
    std::printf(
        "stencil benchmark: %d^3 cells on %d rank(s), %lld cells per rank, %d reps (median, slowest rank), tile "
        "%lld,%lld,%lld\n",
        n, context.size(), cells, reps, static_cast<long long>(grid::stencil_tile()[0]),
        static_cast<long long>(grid::stencil_tile()[1]), static_cast<long long>(grid::stencil_tile()[2]));
    std::printf("%-32s %10s %12s %10s %12s\n", "kernel", "B/cell", "time [ms]", "GB/s", "vs triad");
    const double floor_bandwidth = rows[0].bytes_per_cell * cells / rows[0].seconds;
    for (const auto& row : rows) {
      const double bandwidth = row.bytes_per_cell * cells / row.seconds;
      std::printf("%-32s %10.0f %12.4f %10.1f %12.2f\n", row.name, row.bytes_per_cell, 1e3 * row.seconds,
                  bandwidth / 1e9, bandwidth / floor_bandwidth);
    }
  }
  return 0;
}

}  // namespace eddy::bench
