// `eddy bench halo`: one exchange of F fields on an N^3 block per rank with every transport this build has (MPI;
// on GPUs also NCCL and direct peer writes), periodic in every axis so each rank has all 26 neighbours (itself along
// unsplit axes), or with `--open` no wrap at all, so two ranks exchange exactly one face. Reports the median
// exchange time of the slowest rank, the bytes sent to other ranks per second, and two floors measured in the same
// run: a device copy of all ghost bytes, and on GPU builds with two GPUs visible a copy-engine peer copy of the bytes
// one rank sends.
#include "bench/bench_support.hpp"
#include "bench/benchmarks.hpp"
#include "config/names.hpp"
#include "device/device_info.hpp"
#include "grid/index_ranges.hpp"
#include "parallel/describe.hpp"
#include "parallel/halo_exchange.hpp"

#include <cstdio>

namespace eddy::bench {

int run_halo_bench(const std::vector<std::string>& args, parallel::Context& context) {
  const Options options(args, {{"n", "128"}, {"fields", "4"}, {"width", "1"}, {"reps", "50"}, {"open", "", true}},
                        "halo");
  if (print_usage_if_asked(options, context)) return 0;
  const int n = static_cast<int>(options.integer("n")), width = static_cast<int>(options.integer("width"));
  const int field_count = static_cast<int>(options.integer("fields")), reps = static_cast<int>(options.integer("reps"));
  const bool open = options.given("open");
  require(field_count <= parallel::HaloExchange::max_fields,
          "eddy bench halo: at most " + std::to_string(parallel::HaloExchange::max_fields) + " fields");

  grid::GlobalGrid grid;
  grid.dim = 3;
  grid.periodic = {!open, !open, !open};
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

  std::vector<config::CommBackend> backends{config::CommBackend::mpi};
  if (parallel::Context::nccl_available()) {
    backends.push_back(config::CommBackend::nccl);
    if (context.size() > 1) backends.push_back(config::CommBackend::peer);
  }
  struct Row {
    std::string name;
    double seconds;
  };
  std::vector<Row> rows;
  long long ghost_bytes = 0, remote_bytes = 0;
  for (const auto backend : backends) {
    parallel::HaloExchange halo(context, decomp, shape, fields, width,
                                parallel::choose_halo_transport(context, decomp, backend));
    const auto times = time_reps(reps, 3, context.comm(), [&] { halo.exchange(); });
    rows.push_back({"exchange, " + parallel::to_string(halo.transport()), median_of_slowest(times, context.comm())});
    if (!halo.row_end_images().empty()) {  // as the velocity's after the kernels that write the rows' ends
      const auto by_rows = time_reps(reps, 3, context.comm(), [&] { halo.exchange_after_row_ends(); });
      rows.push_back(
          {"after row ends, " + parallel::to_string(halo.transport()), median_of_slowest(by_rows, context.comm())});
    }
    ghost_bytes = halo.ghost_bytes_per_exchange();
    remote_bytes = halo.bytes_per_exchange();
  }

  Buffer from("bench::copy_from", ghost_bytes / sizeof(Real)), to("bench::copy_to", ghost_bytes / sizeof(Real));
  const auto copy_times = time_reps(reps, 3, context.comm(), [&] { Kokkos::deep_copy(ExecSpace(), to, from); });
  const double copy = median_of_slowest(copy_times, context.comm());
  const double peer_copy = context.rank() == 0 ? device::peer_copy_seconds(remote_bytes, reps) : -1;

  if (context.rank() == 0) {
    std::printf("halo exchange: %s\n", parallel::describe(context, decomp, "(each below)", "-").c_str());
    std::printf("  %d^3 cells per rank, %d fields, width %d, %s, %d reps (median of the slowest rank, fenced)\n", n,
                field_count, width, open ? "no periodic wrap" : "periodic in every axis", reps);
    std::printf("  bytes per exchange per rank: %lld into ghosts, %lld of them sent to other ranks\n", ghost_bytes,
                remote_bytes);
    std::printf("  %-40s %12s %12s %12s\n", "what", "median [us]", "ghost GB/s", "sent GB/s");
    for (const auto& row : rows) {
      std::printf("  %-40s %12.1f %12.2f %12.2f\n", row.name.c_str(), row.seconds * 1e6,
                  ghost_bytes / row.seconds / 1e9, remote_bytes / row.seconds / 1e9);
    }
    std::printf("  %-40s %12.1f %12.2f %12s\n", "floor: device copy of the ghost bytes", copy * 1e6,
                ghost_bytes / copy / 1e9, "-");
    if (peer_copy > 0) {
      std::printf("  %-40s %12.1f %12s %12.2f\n", "floor: peer copy of the sent bytes", peer_copy * 1e6, "-",
                  remote_bytes / peer_copy / 1e9);
    }
  }
  parallel::check_mpi(MPI_Comm_free(&decomp.comm), "MPI_Comm_free(bench)");
  return 0;
}

}  // namespace eddy::bench
