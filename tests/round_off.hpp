#pragma once
// Tolerances of the checks that measure round-off, for the build's precision (CMake EDDY_PRECISION): single precision
// carries about 7 significant digits where double carries 16.
#include "core/types.hpp"

namespace eddy::testing {

/// True in a single-precision build.
inline constexpr bool single_precision = sizeof(Real) == sizeof(float);

/// `in_double` in a double-precision build, `in_single` in a single-precision one.
constexpr double round_off(double in_double, double in_single) {
  return sizeof(Real) == sizeof(double) ? in_double : in_single;
}

}  // namespace eddy::testing
