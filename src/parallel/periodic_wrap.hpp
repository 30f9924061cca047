#pragma once
// The ghosts of a rank that is alone along every axis it exchanges: periodic images of its own cells. The general
// halo kernel decodes, for every ghost point, which of up to 26 segments (faces, edges, corners) it belongs to, at
// about 400 instructions a point on a GPU. Here one kernel per periodic axis copies that axis's ghost layers from the
// owned layers they mirror, over the ghosts of the axes before it, so that edges and corners come out as images of
// images: the same values, a few divisions by invariant integers a point.
#include "core/types.hpp"
#include "fields/field.hpp"
#include "parallel/halo_plan.hpp"

#include <array>
#include <vector>

namespace eddy::parallel {

/// The axes that `segments` wrap around when every segment is a copy inside the rank; all false otherwise.
std::array<bool, 3> local_wrap_axes(const std::vector<HaloSegment>& segments);

/// Fills `width` ghost layers of every field of `shape` along each axis in `axes` with the periodic images of the
/// owned cells, one axis after the other: the ghosts the local segments of local_wrap_axes cover, and no others.
void wrap_periodic_axes(const std::vector<Field>& fields, const fields::LocalShape& shape, int width,
                        const std::array<bool, 3>& axes);

}  // namespace eddy::parallel
