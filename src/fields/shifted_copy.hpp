#pragma once
// A field's values less a constant, copied over its whole span (ghosts included) or shifted in place.
#include "core/types.hpp"

namespace eddy::fields {

/// to = from - shift over `values` contiguous values; `to` may equal `from`.
void shifted_copy(const char* label, Real* to, const Real* from, long long values, Real shift);

/// to = from - shift at every point of two contiguous fields of one span; `to` may be `from`.
void shifted_copy(const char* label, const Field& to, const Field& from, Real shift);

}  // namespace eddy::fields
