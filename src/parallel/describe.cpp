#include "parallel/describe.hpp"

#ifdef EDDY_HAVE_NCCL
#include <nccl.h>
#endif

namespace eddy::parallel {
namespace {

std::string device_text() {
  std::string text = ExecSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  text += " (GPU " + std::to_string(ExecSpace().cuda_device()) + " on the reporting rank)";
#else
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible) {
    text += " (" + std::to_string(ExecSpace().concurrency()) + " threads per rank)";
  }
#endif
  return text;
}

}  // namespace

std::string describe(const Context& context, const grid::Decomposition& decomp, const std::string& halo_backend,
                     const std::string& reduction_backend) {
  const auto& d = decomp.dims;
  return std::to_string(context.size()) + (context.size() == 1 ? " rank" : " ranks") + " as " + std::to_string(d[0]) +
         "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + ", halo: " + halo_backend +
         ", reductions: " + reduction_backend + ", device: " + device_text();
}

std::string nccl_version() {
#ifdef EDDY_HAVE_NCCL
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess) return "unknown";
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
#else
  return "not built in";
#endif
}

}  // namespace eddy::parallel
