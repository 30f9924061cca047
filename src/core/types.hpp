#pragma once
// Scalar and array aliases shared by every stage of eddy.
#include <Kokkos_Core.hpp>

#include <array>

namespace eddy {

/// The type of every field and kernel: set at build time (CMake EDDY_PRECISION).
#ifdef EDDY_SINGLE_PRECISION
using Real = float;
inline constexpr const char* precision_name = "single";
#else
using Real = double;
inline constexpr const char* precision_name = "double";
#endif
using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

/// Every eddy kernel launches with its captures as kernel arguments (up to 4 KiB). Without this hint, Kokkos's CUDA
/// backend copies captures of 512 bytes or more to constant memory and first waits on the host for the previous such
/// kernel to finish: one host synchronisation per launch of a large kernel (halo packing, multi-field updates).
using LightWeight = Kokkos::Experimental::WorkItemProperty::HintLightWeight_t;
/// A 1D index range over ExecSpace with 32-bit indices, launched light-weight.
using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, LightWeight>;

/// A 3D field stored with its ghost layers, x fastest (index (i, j, k) with ghosts offset by the ghost width).
using Field = Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>;
/// A flat device buffer (halo packing, reductions).
using Buffer = Kokkos::View<Real*, MemSpace>;

/// Two neighbouring values of a row, aligned to their size: one 16-byte load or store on GPUs.
struct alignas(2 * sizeof(Real)) RealPair {
  Real even, odd;
};

using Int3 = std::array<int, 3>;
using Real3 = std::array<Real, 3>;

}  // namespace eddy
