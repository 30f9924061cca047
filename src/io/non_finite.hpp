#pragma once
// Locating the first NaN or Inf in the flow state, so a blown-up run says where and in what it blew up.
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <mpi.h>

#include <optional>
#include <string>

namespace eddy::io {

/// Where a non-finite value was found.
struct NonFiniteValue {
  std::string quantity;  ///< "u", "v", "w" (faces on the high side of `cell`) or "p"
  Int3 cell{0, 0, 0};    ///< global cell index
  double value = 0;      ///< the value (NaN, +Inf or -Inf)
  long long step = 0;

  /// One sentence for the log and the error message.
  std::string describe() const;
};

/// The first non-finite owned value (quantities in the order u, v, w, p; within one, the lowest global index, x
/// fastest) on any rank of `comm`, the same answer on every rank; nullopt when all are finite. Collective.
std::optional<NonFiniteValue> find_non_finite(const fields::FlowState& state, const grid::Decomposition& decomp,
                                              MPI_Comm comm, long long step);

}  // namespace eddy::io
