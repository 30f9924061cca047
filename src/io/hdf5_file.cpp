#include "io/hdf5_file.hpp"

#include "core/error.hpp"
#include "io/collective.hpp"

#include <sys/resource.h>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <system_error>

namespace eddy::io {

namespace {

/// Closes an HDF5 handle with the matching close call when it goes out of scope.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer closer, const std::string& what) : id_(id), closer_(closer) {
    if (id_ < 0) throw Error("HDF5: " + what + " failed");
  }
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  /// Closes the handle now; throws if closing fails (for a file: its last buffered writes did not reach the disk).
  void close(const std::string& what) {
    const herr_t status = closer_(id_);
    id_ = -1;
    if (status < 0) throw Error("HDF5: " + what + " failed");
  }

 private:
  hid_t id_;
  Closer closer_;
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what + " failed");
}

/// Writes one attribute on `object` (a file or dataset handle).
void write_attribute(hid_t object, const std::string& name, const AttributeValue& value) {
  auto write_array = [&](hid_t type, const void* data, hsize_t n) {
    Handle space(n == 0 ? H5Screate(H5S_NULL) : H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace " + name);
    Handle attribute(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                     "creating attribute " + name);
    if (n > 0) check(H5Awrite(attribute, type, data), "writing attribute " + name);
  };
  auto write_scalar = [&](hid_t type, const void* data) {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose, "dataspace " + name);
    Handle attribute(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                     "creating attribute " + name);
    check(H5Awrite(attribute, type, data), "writing attribute " + name);
  };
  if (const auto* d = std::get_if<double>(&value)) {
    write_scalar(H5T_NATIVE_DOUBLE, d);
  } else if (const auto* i = std::get_if<long long>(&value)) {
    write_scalar(H5T_NATIVE_LLONG, i);
  } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
    write_scalar(H5T_NATIVE_UINT64, u);
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
    const std::string padded = s->empty() ? std::string(1, '\0') : *s;
    check(H5Tset_size(type, padded.size()), "string size");
    check(H5Tset_strpad(type, H5T_STR_NULLPAD), "string padding");
    write_scalar(type, padded.data());
  } else if (const auto* ds = std::get_if<std::vector<double>>(&value)) {
    write_array(H5T_NATIVE_DOUBLE, ds->data(), ds->size());
  } else if (const auto* is = std::get_if<std::vector<long long>>(&value)) {
    write_array(H5T_NATIVE_LLONG, is->data(), is->size());
  }
}

void write_attributes(hid_t object, const Attributes& attributes) {
  for (const auto& [name, value] : attributes) write_attribute(object, name, value);
}

/// The HDF5 type of the values `dataset` holds (and stores).
hid_t memory_type(const BlockDataset& dataset) {
  return dataset.data.index() == 0 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}

/// Writes this rank's block of `dataset` (already created in the file) with the transfer properties `transfer`.
void write_block(hid_t file, const BlockDataset& dataset, hid_t transfer) {
  Handle data(H5Dopen2(file, dataset.name.c_str(), H5P_DEFAULT), H5Dclose, "opening dataset " + dataset.name);
  Handle file_space(H5Dget_space(data), H5Sclose, "file dataspace of " + dataset.name);
  const int rank = static_cast<int>(dataset.count.size());
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, dataset.offset.data(), nullptr, dataset.count.data(), nullptr),
        "selecting the block of " + dataset.name);
  Handle memory_space(H5Screate_simple(rank, dataset.count.data(), nullptr), H5Sclose, "memory dataspace");
  const void* values = std::visit([](const auto* p) { return static_cast<const void*>(p); }, dataset.data);
  check(H5Dwrite(data, memory_type(dataset), memory_space, file_space, transfer, values),
        "writing dataset " + dataset.name);
}

/// Creates every dataset with its attributes (no data yet).
void create_datasets(hid_t file, const std::vector<BlockDataset>& datasets) {
  for (const auto& dataset : datasets) {
    Handle space(H5Screate_simple(static_cast<int>(dataset.global_dims.size()), dataset.global_dims.data(), nullptr),
                 H5Sclose, "dataspace of " + dataset.name);
    Handle data(
        H5Dcreate2(file, dataset.name.c_str(), memory_type(dataset), space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose, "creating dataset " + dataset.name);
    write_attributes(data, dataset.attributes);
  }
}

#ifdef EDDY_HDF5_PARALLEL
void write_collective(const std::filesystem::path& path, MPI_Comm comm, const Attributes& file_attributes,
                      const std::vector<BlockDataset>& datasets) {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access properties");
  check(H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL), "selecting MPI-IO");
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose, "creating " + path.string());
  write_attributes(file, file_attributes);
  create_datasets(file, datasets);
  Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "transfer properties");
  check(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE), "collective transfer");
  for (const auto& dataset : datasets) write_block(file, dataset, transfer);
  file.close("closing " + path.string());
}
#endif

void write_token_passing(const std::filesystem::path& path, MPI_Comm comm, const Attributes& file_attributes,
                         const std::vector<BlockDataset>& datasets) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int token_tag = 7101;
  int token = 1;  // 1: the file is fine so far; 0: an earlier rank failed, skip writing
  if (rank > 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, token_tag, comm, MPI_STATUS_IGNORE);
  std::string error;
  if (token == 1) {
    try {
      if (rank == 0) {
        Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose,
                    "creating " + path.string());
        write_attributes(file, file_attributes);
        create_datasets(file, datasets);
        for (const auto& dataset : datasets) write_block(file, dataset, H5P_DEFAULT);
        file.close("closing " + path.string());
      } else {
        Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, "opening " + path.string());
        for (const auto& dataset : datasets) write_block(file, dataset, H5P_DEFAULT);
        file.close("closing " + path.string());
      }
    } catch (const std::exception& e) {
      error = e.what();
      token = 0;
    }
  }
  if (rank + 1 < size) MPI_Send(&token, 1, MPI_INT, rank + 1, token_tag, comm);
  run_collectively(comm, [&] {
    if (!error.empty()) throw Error(error);
  });
}

/// The bytes of values in `datasets`.
double data_bytes(const std::vector<BlockDataset>& datasets) {
  double bytes = 0;
  for (const auto& dataset : datasets) {
    double values = 1;
    for (const hsize_t n : dataset.global_dims) values *= static_cast<double>(n);
    bytes += values * dataset.value_bytes();
  }
  return bytes;
}

/// `bytes` in kB, MB or GB, three significant digits.
std::string readable(double bytes) {
  char text[32];
  if (bytes >= 1e9) {
    std::snprintf(text, sizeof(text), "%.3g GB", bytes / 1e9);
  } else if (bytes >= 1e6) {
    std::snprintf(text, sizeof(text), "%.3g MB", bytes / 1e6);
  } else {
    std::snprintf(text, sizeof(text), "%.3g kB", bytes / 1e3);
  }
  return text;
}

/// The bytes free to this process on the file system where `path` would lie (its nearest existing folder); negative
/// where that cannot be told.
double space_available(const std::filesystem::path& path) {
  std::filesystem::path existing = std::filesystem::absolute(path).parent_path();
  std::error_code error;
  while (!existing.empty() && !std::filesystem::exists(existing, error) && existing != existing.root_path()) {
    existing = existing.parent_path();
  }
  const auto space = std::filesystem::space(existing, error);
  return error ? -1.0 : static_cast<double>(space.available);
}

/// `message` about a failed write of `datasets` to `path`, with their size and the space left where `path` would lie
/// (a full disk is the usual cause).
std::string with_space_left(const std::string& message, const std::filesystem::path& path,
                            const std::vector<BlockDataset>& datasets) {
  std::string detail = " (";
  if (message.find(path.string()) == std::string::npos) detail += "writing '" + path.string() + "': ";
  detail += readable(data_bytes(datasets)) + " of data";
  const double available = space_available(path);
  if (available >= 0) detail += "; its file system has " + readable(available) + " free";
  return message + detail + ")";
}

/// Throws on every rank, before any file is created, where the values of `datasets` alone cannot fit: beyond the space
/// free on the file system of `path` (asked on rank 0) or beyond the size any rank may give a file (`ulimit -f`). A
/// write that runs out of room inside HDF5 leaves the library holding a file it cannot close, which HDF5 before 1.14
/// crashes on when the process ends.
void require_room(const std::filesystem::path& path, MPI_Comm comm, const std::vector<BlockDataset>& datasets) {
  const double bytes = data_bytes(datasets);
  const std::string refused = "HDF5: not writing '" + path.string() + "': its " + readable(bytes) + " of data exceed ";
  run_collectively(comm, [&] {
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        bytes > static_cast<double>(limit.rlim_cur)) {
      throw Error(refused + "the " + readable(static_cast<double>(limit.rlim_cur)) +
                  " this process may write to one file (ulimit -f)");
    }
  });
  run_on_rank0(comm, [&] {
    const double available = space_available(path);
    if (available >= 0 && bytes > available) {
      throw Error(refused + "the " + readable(available) + " free on its file system");
    }
  });
}

}  // namespace

WriteMode write_mode(config::Hdf5Writes requested) {
  if (requested == config::Hdf5Writes::token_passing) return WriteMode::token_passing;
#ifdef EDDY_HDF5_PARALLEL
  return WriteMode::collective;
#else
  if (requested == config::Hdf5Writes::collective) {
    throw Error(
        "tuning.hdf5_writes: got 'collective', but this eddy build has a serial HDF5; allowed here: auto, "
        "token_passing");
  }
  return WriteMode::token_passing;
#endif
}

void write_block_file(const std::filesystem::path& path, MPI_Comm comm, WriteMode mode,
                      const Attributes& file_attributes, const std::vector<BlockDataset>& datasets) {
#ifndef EDDY_HDF5_PARALLEL
  if (mode == WriteMode::collective) {
    throw Error("HDF5: collective writes need an HDF5 built with MPI; this build has serial HDF5");
  }
#endif
  require_room(path, comm, datasets);
  bool existed = false;  // on rank 0, which removes what a failed write created
  run_on_rank0(comm, [&] { existed = std::filesystem::exists(path); });
  try {
#ifdef EDDY_HDF5_PARALLEL
    if (mode == WriteMode::collective) {
      run_collectively(comm, [&] { write_collective(path, comm, file_attributes, datasets); });
      return;
    }
#endif
    write_token_passing(path, comm, file_attributes, datasets);
  } catch (const Error& e) {
    run_on_rank0(comm, [&] {
      std::error_code ignored;
      if (!existed && std::filesystem::is_regular_file(path, ignored)) std::filesystem::remove(path, ignored);
    });
    throw Error(with_space_left(e.what(), path, datasets), e.ranks());
  }
}

void write_block_file_atomically(const std::filesystem::path& path, MPI_Comm comm, WriteMode mode,
                                 const Attributes& file_attributes, const std::vector<BlockDataset>& datasets) {
  const std::filesystem::path tmp_path = path.string() + ".tmp";
  try {
    write_block_file(tmp_path, comm, mode, file_attributes, datasets);
  } catch (const Error&) {
    run_on_rank0(comm, [&] {
      std::error_code ignored;
      std::filesystem::remove(tmp_path, ignored);
    });
    throw;
  }
  run_on_rank0(comm, [&] { std::filesystem::rename(tmp_path, path); });
}

H5Reader::H5Reader(const std::filesystem::path& path) : path_(path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (!std::filesystem::exists(path)) throw Error("HDF5 file '" + path.string() + "' does not exist");
  file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_ < 0) throw Error("cannot open '" + path.string() + "' as HDF5 (truncated or corrupted?)");
}

H5Reader::~H5Reader() {
  if (file_ >= 0) H5Fclose(file_);
}

hid_t H5Reader::open_attribute(const std::string& name, const std::string& object) const {
  const hid_t attribute = H5Aopen_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  if (attribute < 0) {
    throw Error("'" + path_.string() + "' has no attribute '" + name + "' on '" + object + "'");
  }
  return attribute;
}

bool H5Reader::has_attribute(const std::string& name, const std::string& object) const {
  return H5Aexists_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

double H5Reader::read_double(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  double value = 0;
  check(H5Aread(attribute, H5T_NATIVE_DOUBLE, &value), "reading attribute " + name);
  return value;
}

long long H5Reader::read_integer(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  long long value = 0;
  check(H5Aread(attribute, H5T_NATIVE_LLONG, &value), "reading attribute " + name);
  return value;
}

std::uint64_t H5Reader::read_uint64(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  std::uint64_t value = 0;
  check(H5Aread(attribute, H5T_NATIVE_UINT64, &value), "reading attribute " + name);
  return value;
}

std::string H5Reader::read_string(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  Handle type(H5Aget_type(attribute), H5Tclose, "type of " + name);
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) > 0) {
    throw Error("attribute '" + name + "' of '" + path_.string() + "' is not a fixed-length string");
  }
  std::string value(H5Tget_size(type), '\0');
  check(H5Aread(attribute, type, value.data()), "reading attribute " + name);
  value.resize(value.find_last_not_of('\0') == std::string::npos ? 0 : value.find_last_not_of('\0') + 1);
  return value;
}

namespace {
template <typename T>
std::vector<T> read_array(hid_t attribute, hid_t memory_type, const std::string& name) {
  Handle space(H5Aget_space(attribute), H5Sclose, "dataspace of " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<T> values(static_cast<std::size_t>(n > 0 ? n : 0));
  if (!values.empty()) check(H5Aread(attribute, memory_type, values.data()), "reading attribute " + name);
  return values;
}
}  // namespace

std::vector<double> H5Reader::read_doubles(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  return read_array<double>(attribute, H5T_NATIVE_DOUBLE, name);
}

std::vector<long long> H5Reader::read_integers(const std::string& name, const std::string& object) const {
  Handle attribute(open_attribute(name, object), H5Aclose, "attribute " + name);
  return read_array<long long>(attribute, H5T_NATIVE_LLONG, name);
}

bool H5Reader::has_dataset(const std::string& name) const { return H5Lexists(file_, name.c_str(), H5P_DEFAULT) > 0; }

std::vector<hsize_t> H5Reader::dims(const std::string& name) const {
  if (!has_dataset(name)) throw Error("'" + path_.string() + "' has no dataset '" + name + "'");
  Handle data(H5Dopen2(file_, name.c_str(), H5P_DEFAULT), H5Dclose, "opening dataset " + name);
  Handle space(H5Dget_space(data), H5Sclose, "dataspace of " + name);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return dims;
}

void H5Reader::read_block(const std::string& name, const std::vector<hsize_t>& offset,
                          const std::vector<hsize_t>& count, double* out) const {
  read_values(name, offset, count, H5T_NATIVE_DOUBLE, out);
}

void H5Reader::read_block(const std::string& name, const std::vector<hsize_t>& offset,
                          const std::vector<hsize_t>& count, float* out) const {
  read_values(name, offset, count, H5T_NATIVE_FLOAT, out);
}

bool H5Reader::holds_floats(const std::string& name) const {
  if (!has_dataset(name)) throw Error("'" + path_.string() + "' has no dataset '" + name + "'");
  Handle data(H5Dopen2(file_, name.c_str(), H5P_DEFAULT), H5Dclose, "opening dataset " + name);
  Handle type(H5Dget_type(data), H5Tclose, "type of " + name);
  return H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == sizeof(float);
}

void H5Reader::read_values(const std::string& name, const std::vector<hsize_t>& offset,
                           const std::vector<hsize_t>& count, hid_t memory_type, void* out) const {
  if (!has_dataset(name)) throw Error("'" + path_.string() + "' has no dataset '" + name + "'");
  Handle data(H5Dopen2(file_, name.c_str(), H5P_DEFAULT), H5Dclose, "opening dataset " + name);
  Handle file_space(H5Dget_space(data), H5Sclose, "dataspace of " + name);
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, offset.data(), nullptr, count.data(), nullptr),
        "selecting a block of " + name);
  Handle memory_space(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose,
                      "memory dataspace");
  if (H5Dread(data, memory_type, memory_space, file_space, H5P_DEFAULT, out) < 0) {
    throw Error("reading dataset '" + name + "' of '" + path_.string() + "' failed (truncated or corrupted file?)");
  }
}

}  // namespace eddy::io
