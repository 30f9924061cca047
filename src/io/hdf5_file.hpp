#pragma once
// One HDF5 file holding global arrays of which every rank owns a block.
//
// Two ways to write it, chosen by the deck (tuning.hdf5_writes, resolved by write_mode):
//   collective     parallel HDF5 (MPI-IO): all ranks open the file together and write their hyperslabs in one
//                  collective call; needs an HDF5 built with MPI (EDDY_HDF5_PARALLEL).
//   token_passing  serial HDF5: rank 0 creates the file, datasets and attributes and writes its block; then each
//                  rank in turn opens the file, writes its hyperslab, closes it and passes the token on.
// Both give the same file: one dataset per array, so readers (ParaView, h5py, a restart) never see the rank count.
#include "config/deck.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace eddy::io {

enum class WriteMode { collective, token_passing };

/// The write mode for the deck's `requested` one (automatic: collective where this build has parallel HDF5); throws
/// eddy::Error naming tuning.hdf5_writes where collective writes are asked of a serial HDF5.
WriteMode write_mode(config::Hdf5Writes requested);

/// An attribute value: a scalar, a string, or a small array.
using AttributeValue =
    std::variant<double, long long, std::uint64_t, std::string, std::vector<double>, std::vector<long long>>;
using Attributes = std::vector<std::pair<std::string, AttributeValue>>;

/// A global array (dims slowest first, C order) and the block of it this rank holds in host memory.
struct BlockDataset {
  std::string name;
  std::vector<hsize_t> global_dims;
  std::vector<hsize_t> offset;
  std::vector<hsize_t> count;
  /// count[0] * ... * count[n-1] values, C order; stored in the file as the type given.
  std::variant<const double*, const float*> data = static_cast<const double*>(nullptr);
  Attributes attributes;  ///< identical on every rank

  /// Bytes per stored value.
  std::size_t value_bytes() const { return data.index() == 0 ? sizeof(double) : sizeof(float); }
};

/// Creates (or truncates) `path` and writes every dataset and attribute; returns on every rank once the file is
/// complete and closed. Throws eddy::Error on every rank if any rank fails, before creating the file where the values
/// alone exceed the space free on its file system or the size a rank may give a file (`ulimit -f`); a failed write
/// removes the file if it created it.
void write_block_file(const std::filesystem::path& path, MPI_Comm comm, WriteMode mode,
                      const Attributes& file_attributes, const std::vector<BlockDataset>& datasets);

/// write_block_file into `path`.tmp, renamed to `path` once complete (collective): a run killed while writing leaves
/// no partial file, only a temporary that the next run in the folder removes (io/run_directory.hpp).
void write_block_file_atomically(const std::filesystem::path& path, MPI_Comm comm, WriteMode mode,
                                 const Attributes& file_attributes, const std::vector<BlockDataset>& datasets);

/// A read-only HDF5 file (each rank opens its own handle); HDF5's own error printing is silenced.
class H5Reader {
 public:
  /// Opens `path`; throws eddy::Error naming the file if it is missing, truncated or not HDF5.
  explicit H5Reader(const std::filesystem::path& path);
  ~H5Reader();
  H5Reader(const H5Reader&) = delete;
  H5Reader& operator=(const H5Reader&) = delete;

  /// True when `object` ("/" for the file) has attribute `name`.
  bool has_attribute(const std::string& name, const std::string& object = "/") const;
  /// An attribute read as the given type; throws eddy::Error if missing or of another kind.
  double read_double(const std::string& name, const std::string& object = "/") const;
  long long read_integer(const std::string& name, const std::string& object = "/") const;
  std::uint64_t read_uint64(const std::string& name, const std::string& object = "/") const;
  std::string read_string(const std::string& name, const std::string& object = "/") const;
  std::vector<double> read_doubles(const std::string& name, const std::string& object = "/") const;
  std::vector<long long> read_integers(const std::string& name, const std::string& object = "/") const;

  /// True when the file has dataset `name`.
  bool has_dataset(const std::string& name) const;
  /// Dimensions of dataset `name`, slowest first.
  std::vector<hsize_t> dims(const std::string& name) const;
  /// Reads the block [offset, offset + count) of dataset `name` into `out` (C order).
  void read_block(const std::string& name, const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count,
                  double* out) const;
  /// The same into floats (HDF5 converts a double dataset).
  void read_block(const std::string& name, const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count,
                  float* out) const;
  /// True when dataset `name` holds 4-byte floats (a single-precision build wrote it).
  bool holds_floats(const std::string& name) const;

 private:
  hid_t open_attribute(const std::string& name, const std::string& object) const;
  void read_values(const std::string& name, const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count,
                   hid_t memory_type, void* out) const;
  std::filesystem::path path_;
  hid_t file_ = -1;
};

}  // namespace eddy::io
