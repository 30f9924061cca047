#pragma once
// A checksum of a global array that does not depend on how the array is split over ranks: the sum (mod 2^64) over
// all elements of a hash of (global linear index, bit pattern of the value). Any rank count gives the same number,
// so a checkpoint written on 2 ranks can be verified when read on 4.
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace eddy::io {

/// This rank's share of the checksum of a block [offset, offset + count) of an array of `global_dims` (C order).
std::uint64_t block_checksum(const double* data, const std::vector<hsize_t>& global_dims,
                             const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count);

/// The checksum of the whole array: the shares of all ranks of `comm` summed.
std::uint64_t sum_checksums(MPI_Comm comm, std::uint64_t share);

}  // namespace eddy::io
