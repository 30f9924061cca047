#pragma once
// What output.fields selects: the flow arrays by name, every transported scalar through the entry `scalars`, or
// single scalars by their own names. One list for validation, the field writer and `eddy check`.
#include "config/deck.hpp"

#include <string>
#include <vector>

namespace eddy::config {

/// The flow arrays a field file can hold: velocity, pressure, vorticity, q_criterion.
const std::vector<std::string>& flow_output_fields();

/// The output.fields entry that stands for every scalar of the deck.
inline const std::string all_scalars_entry = "scalars";

/// The names output.fields may list for `deck`: the flow arrays, `scalars`, then the deck's scalar names.
std::vector<std::string> allowed_output_fields(const Deck& deck);

/// The datasets each field file of `deck` holds, in file order: the flow arrays listed (in 3D, vorticity brings
/// q_criterion), then the scalars listed by name or through `scalars`, in deck order.
std::vector<std::string> output_arrays(const Deck& deck);

}  // namespace eddy::config
