#pragma once
// Which ghost points of a rank come from which neighbour: one segment per direction to a face, edge or corner
// neighbour (26 in 3D), so a whole exchange is one round of messages and can overlap with interior work.
// Indices in a box are taken modulo the owned block along axes that wrap onto this rank (g + (i - g) mod n), so an
// unsplit periodic axis may own fewer cells than the width (2D: one cell in z). A split axis must give every block at
// least `width` cells; plan_halo throws on every rank otherwise.
#include "fields/field.hpp"
#include "grid/decomposition.hpp"

#include <vector>

namespace eddy::parallel {

/// One box of ghost points filled from one neighbour (or, across an unsplit periodic axis, from this rank's own cells).
struct HaloSegment {
  Int3 direction{0, 0, 0};  ///< towards the neighbour, each entry -1, 0 or 1
  int peer = -1;            ///< rank of that neighbour (may be this rank)
  bool local = false;       ///< true when the peer is this rank: a copy inside the rank, no message
  Int3 send_lo{0, 0, 0};    ///< first view index of the owned box sent towards `direction` (wrapped, see below)
  Int3 recv_lo{0, 0, 0};    ///< first view index of the ghost box filled from `direction`
  Int3 dims{0, 0, 0};       ///< extent of both boxes

  /// Points in the box.
  long long points() const { return static_cast<long long>(dims[0]) * dims[1] * dims[2]; }
};

/// 9 (dx + 1) + 3 (dy + 1) + (dz + 1): the opposite direction has index 26 - index, so message order can be mirrored.
int direction_index(Int3 direction);

/// The segments of an exchange of `width` ghost layers: remote ones in increasing direction index, then local ones.
std::vector<HaloSegment> plan_halo(const grid::Decomposition& decomp, const fields::LocalShape& shape, int width);

/// The segments of a one-layer exchange by whole rows, for a block that x wraps onto: the y and z faces, edges and
/// corners as rows that span the x ghosts (remote ones in increasing direction index, then local ones), and last the
/// two x faces, which a kernel that writes the rows' ends fills itself (parallel/row_end_images.hpp).
std::vector<HaloSegment> plan_halo_by_rows(const grid::Decomposition& decomp, const fields::LocalShape& shape);

/// The segments of `segments` to the two face neighbours along `axis`, in their order: every rank keeps the same
/// directions, so each message still has its receiver.
std::vector<HaloSegment> faces_along(std::vector<HaloSegment> segments, int axis);

}  // namespace eddy::parallel
