#include "io/checksum.hpp"

#include "grid/index_ranges.hpp"

namespace eddy::io {

std::uint64_t block_checksum(const BlockValues& blocks, int f, const BlockLayout& layout) {
  const std::uint64_t ny = layout.global_dims[1], nx = layout.global_dims[2];
  const std::uint64_t oz = layout.offset[0], oy = layout.offset[1], ox = layout.offset[2];
  const Int3 count{static_cast<int>(blocks.extent(0)), static_cast<int>(blocks.extent(1)),
                   static_cast<int>(blocks.extent(2))};
  std::uint64_t sum = 0;
  Kokkos::parallel_reduce(
      "io::block_checksum", grid::box({0, 0, 0}, count),
      KOKKOS_LAMBDA(int i, int j, int k, std::uint64_t& part) {
        const std::uint64_t global_index = ((oz + k) * ny + oy + j) * nx + ox + i;
        part += element_hash(global_index, blocks(i, j, k, f));
      },
      sum);
  return sum;
}

std::uint64_t sum_checksums(MPI_Comm comm, std::uint64_t share) {
  MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_UINT64_T, MPI_SUM, comm);
  return share;
}

}  // namespace eddy::io
