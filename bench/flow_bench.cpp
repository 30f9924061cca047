// `eddy bench flow`: the kernels of a time step outside the Poisson solver, each against the fastest streaming kernel
// with its read/write mix over the same cell count: the velocity's Runge-Kutta stage (advection and diffusion of the
// three components and the update; its mix differs by stage), the divergence and the pressure-gradient correction,
// the last two also with one thread per point (their CPU loop).
#include "bench/bench_support.hpp"
#include "bench/benchmarks.hpp"
#include "bench/kernel_table.hpp"
#include "grid/cell_loops.hpp"
#include "grid/pair_columns.hpp"
#include "operators/correction_boxes.hpp"
#include "operators/correction_with_diagnostics.hpp"
#include "operators/difference.hpp"
#include "operators/divergence.hpp"
#include "operators/divergence_stencil.hpp"
#include "operators/flow_diagnostics.hpp"
#include "operators/gradient.hpp"
#include "operators/velocity_stage.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/transport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace eddy::bench {
namespace {

constexpr int kMaxArrays = 6;

struct StreamArrays {
  const Real* in[kMaxArrays];
  Real* out[kMaxArrays];
};

/// out_w = s * sum of the inputs for every output: Reads + Writes arrays streamed once (a pair of values per thread
/// where `Pairs`, as the pair loops load them; `cells` must then be even).
template <int Reads, int Writes, bool Pairs>
void stream_mix(const StreamArrays& a, long long cells, Real s) {
  constexpr int width = Pairs ? 2 : 1;
  Kokkos::parallel_for(
      "bench::stream_mix", Range(0, static_cast<int>(cells / width)), KOKKOS_LAMBDA(int q) {
        if (Pairs) {
          RealPair sum{0, 0};
          for (int r = 0; r < Reads; ++r) {
            const RealPair v = reinterpret_cast<const RealPair*>(a.in[r])[q];
            sum.even += v.even;
            sum.odd += v.odd;
          }
          for (int w = 0; w < Writes; ++w) reinterpret_cast<RealPair*>(a.out[w])[q] = {s * sum.even, s * sum.odd};
        } else {
          Real sum = 0;
          for (int r = 0; r < Reads; ++r) sum += a.in[r][q];
          for (int w = 0; w < Writes; ++w) a.out[w][q] = s * sum;
        }
      });
}

/// out_w += s * in_0 for Updates outputs: Updates + 1 reads and Updates writes, the outputs updated in place as the
/// gradient correction updates the velocity (a pair of values per thread; `cells` even).
template <int Updates>
void stream_update_pairs(const StreamArrays& a, long long cells, Real s) {
  Kokkos::parallel_for(
      "bench::stream_update_pairs", Range(0, static_cast<int>(cells / 2)), KOKKOS_LAMBDA(int q) {
        const RealPair d = reinterpret_cast<const RealPair*>(a.in[0])[q];
        RealPair values[Updates];
        for (int w = 0; w < Updates; ++w) values[w] = reinterpret_cast<const RealPair*>(a.out[w])[q];
        for (int w = 0; w < Updates; ++w) {
          reinterpret_cast<RealPair*>(a.out[w])[q] = {values[w].even + s * d.even, values[w].odd + s * d.odd};
        }
      });
}

/// The sum of Reads arrays (a pair of values per thread where `Pairs`): the streaming floor of a reduction over them.
template <int Reads, bool Pairs>
Real stream_sum(const StreamArrays& a, long long cells) {
  constexpr int width = Pairs ? 2 : 1;
  Real total = 0;
  Kokkos::parallel_reduce(
      "bench::stream_sum", Range(0, static_cast<int>(cells / width)),
      KOKKOS_LAMBDA(int q, Real& sum) {
        for (int r = 0; r < Reads; ++r) {
          if (Pairs) {
            const RealPair v = reinterpret_cast<const RealPair*>(a.in[r])[q];
            sum += v.even + v.odd;
          } else {
            sum += a.in[r][q];
          }
        }
      },
      total);
  return total;
}

/// The divergence with one thread per owned cell (for_each_owned_cell).
void divergence_by_cells(const fields::FlowState& state, Field out, const operators::StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const operators::InverseSpacing inv = grid.inv;
  grid::for_each_owned_cell(
      "bench::divergence_by_cells", grid.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        out(i, j, k) = operators::divergence_at_center(u, v, w, i, j, k, inv, true);
      });
}

/// The pressure-gradient correction with one thread per owned cell (periodic box: every face box is the owned cells).
void correction_by_cells(const fields::FlowState& state, Field p, Real factor, const operators::StaggeredGrid& grid) {
  const Field u = state.u, v = state.v, w = state.w;
  const operators::InverseSpacing inv = grid.inv;
  grid::for_each_owned_cell(
      "bench::correction_by_cells", grid.shape, KOKKOS_LAMBDA(int i, int j, int k) {
        u(i, j, k) -= factor * operators::ddx_center_to_face(p, i, j, k, inv.x);
        v(i, j, k) -= factor * operators::ddy_center_to_face(p, i, j, k, inv.y);
        w(i, j, k) -= factor * operators::ddz_center_to_face(p, i, j, k, inv.z);
      });
}

fields::FlowState random_state(const fields::LocalShape& shape, int rank) {
  auto state = fields::FlowState::allocate(shape);
  fill_random(state.u, rank);
  fill_random(state.v, rank + 100);
  fill_random(state.w, rank + 200);
  fill_random(state.p, rank + 300);
  return state;
}

void copy_state(const fields::FlowState& to, const fields::FlowState& from) {
  Kokkos::deep_copy(to.u, from.u);
  Kokkos::deep_copy(to.v, from.v);
  Kokkos::deep_copy(to.w, from.w);
  Kokkos::deep_copy(to.p, from.p);
}

}  // namespace

int run_flow_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"n", "128"}, {"reps", "20"}, {"pair_planes", "8"}}, "flow");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n", 4));
  const int reps = static_cast<int>(options.integer("reps"));
  parallel::Reducer reducer(context, parallel::choose_reduction_transport());

  const auto decomp = grid::decompose(periodic_unit_cube(n), context.comm());
  const auto shape = fields::local_shape(decomp, 1, options.pair_planes());
  const parallel::Transport halo_transport = parallel::choose_halo_transport(context, decomp);
  const auto flow_grid = operators::make_staggered_grid(decomp, shape);
  const long long cells = decomp.local_cell_count();
  std::vector<KernelRow> rows;

  // The floors: every mix the kernels below have, with one value and with a pair of values per thread.
  std::vector<Buffer> buffers;
  StreamArrays arrays{};
  for (int b = 0; b < 2 * kMaxArrays; ++b) {
    buffers.emplace_back(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::stream"), cells);
    fill_random(buffers.back(), context.rank() + b);
    if (b < kMaxArrays) arrays.in[b] = buffers.back().data();
    if (b >= kMaxArrays) arrays.out[b - kMaxArrays] = buffers.back().data();
  }
  const auto add_streams = [&](Mix mix, const std::function<void()>& one, const std::function<void()>& pairs) {
    const std::string name = "stream " + std::to_string(static_cast<int>(mix.reads)) + " reads, " +
                             std::to_string(static_cast<int>(mix.writes)) + " writes";
    rows.push_back({name, mix, time_kernel(one, reps, reducer), true});
    if (cells % 2 == 0) rows.push_back({name + ", pairs", mix, time_kernel(pairs, reps, reducer), true});
  };
  const Real s = 0.25;
  add_streams(
      {3, 1}, [&] { stream_mix<3, 1, false>(arrays, cells, s); }, [&] { stream_mix<3, 1, true>(arrays, cells, s); });
  Real sink = 0;  // keeps the sums alive
  add_streams(
      {3, 0}, [&] { sink += stream_sum<3, false>(arrays, cells); },
      [&] { sink += stream_sum<3, true>(arrays, cells); });
  add_streams(
      {4, 3}, [&] { stream_mix<4, 3, false>(arrays, cells, s); }, [&] { stream_mix<4, 3, true>(arrays, cells, s); });
  if (cells % 2 == 0) {
    rows.push_back({"stream 4 reads, 3 of them updated, pairs",
                    {4, 3},
                    time_kernel([&] { stream_update_pairs<3>(arrays, cells, s); }, reps, reducer),
                    true});
  }
  add_streams(
      {3, 6}, [&] { stream_mix<3, 6, false>(arrays, cells, s); }, [&] { stream_mix<3, 6, true>(arrays, cells, s); });
  add_streams(
      {3, 3}, [&] { stream_mix<3, 3, false>(arrays, cells, s); }, [&] { stream_mix<3, 3, true>(arrays, cells, s); });
  add_streams(
      {6, 6}, [&] { stream_mix<6, 6, false>(arrays, cells, s); }, [&] { stream_mix<6, 6, true>(arrays, cells, s); });
  add_streams(
      {6, 3}, [&] { stream_mix<6, 3, false>(arrays, cells, s); }, [&] { stream_mix<6, 3, true>(arrays, cells, s); });
  buffers.clear();

  const auto state = random_state(shape, context.rank());

  // The divergence and the correction: every form must compute production's fields before its time means anything.
  const Field div = fields::make_field("bench::div", shape), div_form = fields::make_field("bench::div_form", shape);
  operators::compute_divergence(state, div, flow_grid, 1);
  divergence_by_cells(state, div_form, flow_grid);
  require(max_difference(div, div_form) < 1e-9 * n, "bench flow: the divergence by cells differs from production");
  rows.push_back({"divergence (production)",
                  {3, 1},
                  time_kernel([&] { operators::compute_divergence(state, div, flow_grid, 1); }, reps, reducer)});
  rows.push_back({"divergence, one cell/thread",
                  {3, 1},
                  time_kernel([&] { divergence_by_cells(state, div, flow_grid); }, reps, reducer)});

  // Production writes the velocity's rows' ends to their x ghosts where the halo exchange allows it (one rank).
  const parallel::RowEndImages row_ends =
      parallel::HaloExchange(context, decomp, shape, {state.u, state.v, state.w}, 1, halo_transport).row_end_images();
  const auto corrected = random_state(shape, context.rank()), corrected_form = random_state(shape, context.rank());
  copy_state(corrected_form, corrected);
  const Real factor = 1e-3;
  operators::subtract_pressure_gradient(corrected, corrected.p, factor, flow_grid, {});
  correction_by_cells(corrected_form, corrected_form.p, factor, flow_grid);
  const Real correction_difference =
      std::max({max_difference(corrected.u, corrected_form.u), max_difference(corrected.v, corrected_form.v),
                max_difference(corrected.w, corrected_form.w)});
  require(correction_difference < 1e-12, "bench flow: the gradient correction by cells differs from production");
  // Where production marches columns of face pairs, the same loop with columns twice as long, the other pair loops'
  // length: the correction's own length was chosen by this comparison.
  const int other_column = 2 * operators::correction_planes(shape.pair_planes);
  const bool correction_by_pairs = grid::use_cell_pairs(shape, {corrected.u, corrected.v, corrected.w, corrected.p}) &&
                                   operators::pairs_take_row_ends(row_ends);
  if (correction_by_pairs) {
    const auto other = random_state(shape, context.rank());
    operators::subtract_pressure_gradient_by_pairs(other, other.p, factor, flow_grid, {}, {}, other_column);
    require(std::max({max_difference(other.u, corrected.u), max_difference(other.v, corrected.v),
                      max_difference(other.w, corrected.w)}) == 0,
            "bench flow: the gradient correction by columns of " + std::to_string(other_column) +
                " planes differs from production");
  }
  rows.push_back(
      {"gradient correction (production)",
       {4, 3},
       time_kernel(
           [&] { operators::subtract_pressure_gradient(corrected, corrected.p, factor, flow_grid, {}, row_ends); },
           reps, reducer)});
  if (correction_by_pairs) {
    rows.push_back({"gradient correction, columns of " + std::to_string(other_column) + " planes",
                    {4, 3},
                    time_kernel(
                        [&] {
                          operators::subtract_pressure_gradient_by_pairs(corrected, corrected.p, factor, flow_grid, {},
                                                                         row_ends, other_column);
                        },
                        reps, reducer)});
  }
  rows.push_back({"gradient correction, one cell/thread",
                  {4, 3},
                  time_kernel([&] { correction_by_cells(corrected, corrected.p, factor, flow_grid); }, reps, reducer)});

  // The step's flow diagnostics (energy, max |div u|, CFL rate): a reduction reading the three components.
  operators::LocalDiagnostics by_pairs, by_cells;
  rows.push_back({"flow diagnostics (production)",
                  {3, 0},
                  time_kernel([&] { by_pairs = operators::local_flow_diagnostics(state, flow_grid); }, reps, reducer)});
  rows.push_back(
      {"flow diagnostics, one cell/thread",
       {3, 0},
       time_kernel([&] { by_cells = operators::local_flow_diagnostics_by_cells(state, flow_grid); }, reps, reducer)});
  require(std::abs(by_pairs.kinetic_energy - by_cells.kinetic_energy) <= 1e-9 * by_cells.kinetic_energy &&
              by_pairs.max_divergence == by_cells.max_divergence && by_pairs.velocity_rate == by_cells.velocity_rate,
          "bench flow: the flow diagnostics by cells differ from production");
  // The step's last correction writes out of place and computes the diagnostics in the same pass
  // (operators/correction_with_diagnostics.hpp): against production's correction in place followed by the diagnostics,
  // both from a velocity and a pressure whose ghosts the exchange has filled, the velocity's after the correction too.
  {
    const auto start = random_state(shape, context.rank()), in_place = random_state(shape, context.rank());
    parallel::HaloExchange(context, decomp, shape, {start.u, start.v, start.w, start.p}, 1, halo_transport).exchange();
    copy_state(in_place, start);
    const auto out = fields::FaceVector::allocate("bench::corrected_out", shape);
    copy_state({out.u, out.v, out.w, start.p, shape}, start);  // the rows' padding, which neither writes, alike
    parallel::HaloExchange in_place_halo(context, decomp, shape, {in_place.u, in_place.v, in_place.w}, 1,
                                         halo_transport);
    parallel::HaloExchange out_halo(context, decomp, shape, {out.u, out.v, out.w}, 1, halo_transport);
    operators::subtract_pressure_gradient(in_place, in_place.p, factor, flow_grid, {}, row_ends);
    const auto exchange = [&](parallel::HaloExchange& halo) {
      row_ends.empty() ? halo.exchange() : halo.exchange_after_row_ends();
    };
    exchange(in_place_halo);
    const operators::LocalDiagnostics two_passes = operators::local_flow_diagnostics(in_place, flow_grid);
    if (operators::fits_diagnosed_correction(start, out, flow_grid, row_ends)) {
      const operators::LocalDiagnostics one_pass =
          operators::correct_and_diagnose(start, out, factor, flow_grid, {}, row_ends);
      exchange(out_halo);
      const Real velocity_difference = std::max(
          {max_difference(out.u, in_place.u), max_difference(out.v, in_place.v), max_difference(out.w, in_place.w)});
      require(velocity_difference < 1e-12 &&
                  std::abs(one_pass.kinetic_energy - two_passes.kinetic_energy) <= 1e-12 * two_passes.kinetic_energy &&
                  std::abs(one_pass.max_divergence - two_passes.max_divergence) <= 1e-12 * two_passes.max_divergence &&
                  std::abs(one_pass.velocity_rate - two_passes.velocity_rate) <= 1e-12 * two_passes.velocity_rate,
              "bench flow: the correction out of place with the diagnostics differs from the two passes");
      rows.push_back({"gradient correction in place, then flow diagnostics",
                      {4, 3},
                      time_kernel(
                          [&] {
                            operators::subtract_pressure_gradient(start, start.p, factor, flow_grid, {}, row_ends);
                            sink += operators::local_flow_diagnostics(start, flow_grid).kinetic_energy;
                          },
                          reps, reducer)});
      rows.push_back(
          {"gradient correction out of place, with the diagnostics",
           {4, 3},
           time_kernel(
               [&] {
                 sink += operators::correct_and_diagnose(start, out, factor, flow_grid, {}, row_ends).kinetic_energy;
               },
               reps, reducer)});
    }
  }
  // The velocity's stage (timed last: allocated before the divergence's field, its buffers moved that field and
  // slowed the divergence by pairs), central advection (the deck default), in its three forms of Wray's RK3 step: the
  // first stage keeps R_k for the next, the second reads R_{k-1} and keeps R_k, the third reads R_{k-1} only; and the
  // two of the SSP RK3: the first stage keeps nothing, the others blend in the step's start. Production's form: by
  // tiles on GPUs, by rows on CPUs (tests/flow/test_velocity_stage.cpp checks that both give the same bits).
  {
    const Real viscosity = 1e-3;
    const auto scheme = config::AdvectionScheme::central;
    const auto start = fields::FaceVector::allocate("bench::start", shape);
    Kokkos::deep_copy(start.u, state.v);
    Kokkos::deep_copy(start.v, state.w);
    Kokkos::deep_copy(start.w, state.u);
    const operators::StageTargets targets{fields::FaceVector::allocate("bench::next", shape),
                                          fields::FaceVector::allocate("bench::rhs", shape), start, row_ends};
    constexpr int kinds = 5;
    const operators::StageWeights weights[kinds] = {
        {1e-3, 0, true}, {1e-3, -1e-3, true}, {1e-3, -1e-3, false}, {1e-3, 0, false}, {1e-3, 0, false, 0.75}};
    const char* names[kinds] = {"velocity stage 1 (keeps R)", "velocity stage 2 (reads, keeps R)",
                                "velocity stage 3 (reads R)", "SSP velocity stage 1 (keeps nothing)",
                                "SSP velocity stage 2 (blends u_0)"};
    const Mix mixes[kinds] = {{3, 6}, {6, 6}, {6, 3}, {3, 3}, {6, 3}};
    for (int s = 0; s < kinds; ++s) {
      rows.push_back(
          {names[s], mixes[s],
           time_kernel([&] { operators::velocity_stage(state, targets, flow_grid, scheme, viscosity, weights[s]); },
                       reps, reducer)});
    }
  }

  require(std::isfinite(sink), "bench flow: the summing streams read non-finite values");
  require_floors(rows, "flow");

  if (context.rank() == 0) {
    std::printf(
        "flow kernels benchmark: %d^3 cells on %d rank(s), %lld cells per rank, %d reps (median, slowest rank)\n", n,
        context.size(), cells, reps);
    std::printf("pair loops: columns of up to %d planes\n", shape.pair_planes);
    print_kernel_table(rows, cells, 50);
    std::printf(
        "floor: the fastest stream with the row's reads and writes per cell (one value or a pair per thread)\n");
  }
  return 0;
}

}  // namespace eddy::bench
