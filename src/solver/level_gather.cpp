#include "solver/level_gather.hpp"

#include "parallel/context.hpp"

#include <algorithm>

namespace eddy::solver {

std::vector<BlockLayout> gather_block_layouts(const grid::Decomposition& decomp, MPI_Comm comm) {
  int ranks = 1;
  parallel::check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size(block layouts)");
  int mine[6] = {decomp.offset[0],      decomp.offset[1],      decomp.offset[2],
                 decomp.local_cells[0], decomp.local_cells[1], decomp.local_cells[2]};
  std::vector<int> all(6 * static_cast<std::size_t>(ranks));
  parallel::check_mpi(MPI_Allgather(mine, 6, MPI_INT, all.data(), 6, MPI_INT, comm), "MPI_Allgather(block layouts)");
  std::vector<BlockLayout> layouts(ranks);
  for (int r = 0; r < ranks; ++r) {
    const int* l = &all[6 * static_cast<std::size_t>(r)];
    layouts[r] = {{l[0], l[1], l[2]}, {l[3], l[4], l[5]}};
  }
  return layouts;
}

int gather_slot(const std::vector<BlockLayout>& layouts) {
  long long slot = 0;
  for (const auto& l : layouts) slot = std::max(slot, l.count());
  return static_cast<int>(slot);
}

void pack_owned(Buffer packed, Field f, const fields::LocalShape& shape, int start) {
  const int nx = shape.cells[0], ny = shape.cells[1], g = shape.ghost;
  const int count = shape.cells[0] * shape.cells[1] * shape.cells[2];
  Kokkos::parallel_for(
      "level::pack_owned", Range(0, count),
      KOKKOS_LAMBDA(int p) { packed(start + p) = f(p % nx + g, p / nx % ny + g, p / (nx * ny) + g); });
}

}  // namespace eddy::solver
