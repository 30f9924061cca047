#pragma once
// Copies of the flow state: the last good state kept before each step, and the restart's restoring of stored values.
#include "fields/field.hpp"

namespace eddy::time {

/// Copies u, v and w of `from` into `to` (same shape), ghosts included.
void copy_velocity(const fields::FlowState& from, const fields::FlowState& to);

/// Copies the owned values of u, v and w of `from` into `to` (same shape); ghosts and low boundary faces stay.
void copy_owned_velocity(const fields::FlowState& from, const fields::FlowState& to);

}  // namespace eddy::time
