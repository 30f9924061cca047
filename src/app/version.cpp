#include "version.hpp"

#include "parallel/describe.hpp"

#include <hdf5.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

namespace eddy::app {
namespace {

// "major.minor.patch" from a code major * 10000 + minor * 100 + patch (Kokkos, NCCL >= 2.9).
std::string dotted_version(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
}

std::string mpi_library_line() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  std::string version(text, length);
  version = version.substr(0, version.find('\n'));
  while (!version.empty() && (version.back() == ' ' || version.back() == '\0' || version.back() == '\r')) {
    version.pop_back();
  }
  return version;
}

}  // namespace

std::string version_report() {
  std::string text = "eddy " EDDY_VERSION "\n";
  text += "Kokkos " + dotted_version(KOKKOS_VERSION) + " (execution space: " + Kokkos::DefaultExecutionSpace::name() +
          ", host: " + Kokkos::DefaultHostExecutionSpace::name() + ")\n";
  text += "MPI: " + mpi_library_line() + "\n";
  text += "NCCL: " + parallel::nccl_version() + "\n";
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
#ifdef EDDY_HDF5_PARALLEL
  const char* flavour = "parallel";
#else
  const char* flavour = "serial";
#endif
  text += "HDF5: " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release) + " (" +
          flavour + ")\n";
  return text;
}

}  // namespace eddy::app
