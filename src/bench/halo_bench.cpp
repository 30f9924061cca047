// `eddy bench halo`: one exchange of F fields on an N^3 block per rank, periodic in every axis so each rank has all
// 26 neighbours (itself along unsplit axes). Reports the median exchange time of the slowest rank, the bytes written
// into ghosts, and a device copy of the same bytes measured in the same run as the local floor.
#include "bench/bench_support.hpp"
#include "bench/benchmarks.hpp"
#include "grid/index_ranges.hpp"
#include "parallel/describe.hpp"
#include "parallel/halo_exchange.hpp"

#include <cstdio>

namespace eddy::bench {

int run_halo_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const auto opt = int_options(args, {{"--n", 128}, {"--fields", 4}, {"--width", 1}, {"--reps", 50}}, "halo");
  const int n = static_cast<int>(opt.at("--n")), width = static_cast<int>(opt.at("--width"));
  const int field_count = static_cast<int>(opt.at("--fields")), reps = static_cast<int>(opt.at("--reps"));
  require(field_count <= parallel::HaloExchange::max_fields,
          "eddy bench halo: at most " + std::to_string(parallel::HaloExchange::max_fields) + " fields");

  grid::GlobalGrid grid;
  grid.dim = 3;
  grid.periodic = {true, true, true};
  grid.cells = {1 << 20, 1 << 20, 1 << 20};  // any split allowed while choosing the process grid
  const Int3 dims = grid::choose_process_dims(grid, context.size());
  for (int a = 0; a < 3; ++a) grid.cells[a] = n * dims[a];
  auto decomp = grid::decompose(grid, context.comm(), dims);
  const auto shape = fields::local_shape(decomp, width);

  std::vector<Field> fields;
  for (int f = 0; f < field_count; ++f) {
    fields.push_back(fields::make_field("bench::field", shape));
    auto field = fields.back();
    const Real base = context.rank() * 1000.0 + f;
    Kokkos::parallel_for(
        "bench::fill_field", grid::all_points(shape),
        KOKKOS_LAMBDA(int i, int j, int k) { field(i, j, k) = base + 1e-3 * i + 1e-5 * j + 1e-7 * k; });
  }
  parallel::HaloExchange halo(context, decomp, shape, fields, width);
  const auto exchange_times = time_reps(reps, 3, context.comm(), [&] { halo.exchange(); });
  const double exchange = median_of_slowest(exchange_times, context.comm());

  const long long ghost_bytes = halo.ghost_bytes_per_exchange();
  Buffer from("bench::copy_from", ghost_bytes / sizeof(Real)), to("bench::copy_to", ghost_bytes / sizeof(Real));
  const auto copy_times = time_reps(reps, 3, context.comm(), [&] { Kokkos::deep_copy(ExecSpace(), to, from); });
  const double copy = median_of_slowest(copy_times, context.comm());

  if (context.rank() == 0) {
    std::printf("halo exchange: %s\n", parallel::describe(context, decomp, halo.backend_name(), "-").c_str());
    std::printf("  %d^3 cells per rank, %d fields, width %d, %d reps (median of the slowest rank, fenced)\n", n,
                field_count, width, reps);
    std::printf("  ghost bytes per exchange per rank: %lld (to other ranks: %lld)\n", ghost_bytes,
                halo.bytes_per_exchange());
    std::printf("  %-34s %12s %10s\n", "what", "median [us]", "ghost GB/s");
    std::printf("  %-34s %12.1f %10.2f\n", "exchange (pack, send, unpack)", exchange * 1e6,
                ghost_bytes / exchange / 1e9);
    std::printf("  %-34s %12.1f %10.2f\n", "device copy of the ghost bytes", copy * 1e6, ghost_bytes / copy / 1e9);
    std::printf("  exchange / copy: %.1f\n", exchange / copy);
  }
  parallel::check_mpi(MPI_Comm_free(&decomp.comm), "MPI_Comm_free(bench)");
  return 0;
}

}  // namespace eddy::bench
