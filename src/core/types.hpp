#pragma once
// Scalar and array aliases shared by every stage of eddy.
#include <Kokkos_Core.hpp>

#include <array>

namespace eddy {

using Real = double;
using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

/// A 3D field stored with its ghost layers, x fastest (index (i, j, k) with ghosts offset by the ghost width).
using Field = Kokkos::View<Real***, Kokkos::LayoutLeft, MemSpace>;
/// A flat device buffer (halo packing, reductions).
using Buffer = Kokkos::View<Real*, MemSpace>;

using Int3 = std::array<int, 3>;
using Real3 = std::array<Real, 3>;

}  // namespace eddy
