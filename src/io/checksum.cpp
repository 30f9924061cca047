#include "io/checksum.hpp"

#include <cstring>

namespace eddy::io {

namespace {

/// SplitMix64 finaliser: a bijective 64-bit mix with good avalanche.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t block_checksum(const double* data, const std::vector<hsize_t>& global_dims,
                             const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count) {
  const std::size_t rank = count.size();
  std::size_t total = 1;
  for (auto c : count) total *= c;
  std::vector<hsize_t> position(rank, 0);  // index inside the block, last axis fastest
  std::uint64_t sum = 0;
  for (std::size_t n = 0; n < total; ++n) {
    std::uint64_t global_index = 0;
    for (std::size_t a = 0; a < rank; ++a) global_index = global_index * global_dims[a] + offset[a] + position[a];
    std::uint64_t bits = 0;
    std::memcpy(&bits, data + n, sizeof(bits));
    sum += mix(bits ^ mix(global_index));
    for (std::size_t a = rank; a-- > 0;) {
      if (++position[a] < count[a]) break;
      position[a] = 0;
    }
  }
  return sum;
}

std::uint64_t sum_checksums(MPI_Comm comm, std::uint64_t share) {
  MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_UINT64_T, MPI_SUM, comm);
  return share;
}

}  // namespace eddy::io
