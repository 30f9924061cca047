#pragma once
// A vector quantity stored like the velocity, one component per face family (momentum right-hand sides).
#include "fields/field.hpp"

#include <string>

namespace eddy::fields {

/// Components on the x-, y- and z-faces, same shape as the flow state.
struct FaceVector {
  Field u, v, w;

  /// Allocates zero-initialised components named `label`_u, `label`_v, `label`_w.
  static FaceVector allocate(const std::string& label, const LocalShape& shape) {
    return {make_field(label + "_u", shape), make_field(label + "_v", shape), make_field(label + "_w", shape)};
  }
};

}  // namespace eddy::fields
