#pragma once
// A checksum of a global array that does not depend on how the array is split over ranks: the sum (mod 2^64) over
// all elements of a hash of (global linear index, bit pattern of the value). Any rank count gives the same number,
// so a checkpoint written on 2 ranks can be verified when read on 4. Each rank sums its block where the block lives
// (on the GPU in GPU builds), in any order: the sum of unsigned integers does not depend on it.
#include "core/types.hpp"
#include "io/block_layout.hpp"

#include <mpi.h>

#include <cstdint>
#include <type_traits>

namespace eddy::io {

/// A rank's blocks of several global arrays: (x, y, z, array), the owned cells only.
using BlockValues = Kokkos::View<const Real****, Kokkos::LayoutLeft, MemSpace>;

/// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche.
KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64_finaliser(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The hash of one element: its value's bit pattern mixed with its global linear index (C order, x fastest).
KOKKOS_INLINE_FUNCTION std::uint64_t element_hash(std::uint64_t global_index, Real value) {
  using Bits = std::conditional_t<sizeof(Real) == sizeof(std::uint32_t), std::uint32_t, std::uint64_t>;
  const std::uint64_t bits = Kokkos::bit_cast<Bits>(value);
  return splitmix64_finaliser(bits ^ splitmix64_finaliser(global_index));
}

/// This rank's share of the checksum of array `f` of `blocks`, the block `layout` places in the global array.
std::uint64_t block_checksum(const BlockValues& blocks, int f, const BlockLayout& layout);

/// The checksum of the whole array: the shares of all ranks of `comm` summed.
std::uint64_t sum_checksums(MPI_Comm comm, std::uint64_t share);

}  // namespace eddy::io
