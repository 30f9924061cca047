#pragma once
// Read access to a field through 32-bit index arithmetic. A view computes each read's offset in 64 bits, several
// instructions per neighbour on GPUs; a kernel that reads many neighbours per cell (the momentum tendency: about 60)
// is then bound by those instructions rather than by bandwidth. Here the offsets are ints that the compiler shares
// between neighbours, one wide multiply-add per read.
#include "core/error.hpp"
#include "core/types.hpp"

#include <limits>

namespace eddy::fields {

/// A field's values at view indices (i, j, k) through int offsets; `T` is `const Real` to read, `Real` to write too.
template <class T>
struct BasicFlatField {
  T* data = nullptr;
  int row = 0, plane = 0;

  /// Accesses `f`, which must be contiguous along x and hold fewer than 2^31 points.
  explicit BasicFlatField(const Field& f)
      : data(f.data()), row(static_cast<int>(f.stride(1))), plane(static_cast<int>(f.stride(2))) {
    require(f.stride(0) == 1 && f.span() < static_cast<std::size_t>(std::numeric_limits<int>::max()),
            "FlatField: the field is not contiguous along x or holds 2^31 points or more");
  }

  /// The value at view indices (i, j, k).
  KOKKOS_INLINE_FUNCTION T& operator()(int i, int j, int k) const { return data[i + j * row + k * plane]; }
};

/// Read access through int offsets.
using FlatField = BasicFlatField<const Real>;
/// Read and write access through int offsets.
using WritableFlatField = BasicFlatField<Real>;

}  // namespace eddy::fields
