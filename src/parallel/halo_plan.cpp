#include "parallel/halo_plan.hpp"

#include "core/error.hpp"

#include <string>

namespace eddy::parallel {

int direction_index(Int3 direction) { return 9 * (direction[0] + 1) + 3 * (direction[1] + 1) + (direction[2] + 1); }

std::vector<HaloSegment> plan_halo(const grid::Decomposition& decomp, const fields::LocalShape& shape, int width) {
  require(width >= 1 && width <= shape.ghost, "halo exchange: width must be between 1 and the ghost width (" +
                                                  std::to_string(shape.ghost) + "), got " + std::to_string(width));
  for (int a = 0; a < 3; ++a) {
    // Checked on the smallest block of the axis, so every rank agrees and a neighbour never owns too few cells.
    const int smallest = decomp.global.cells[a] / decomp.dims[a];
    require(decomp.dims[a] == 1 || smallest >= width,
            "halo exchange: along axis " + std::to_string(a) + " some rank owns " + std::to_string(smallest) +
                " cells, fewer than the halo width " + std::to_string(width) + "; use fewer ranks along that axis");
  }
  const int g = shape.ghost;
  std::vector<HaloSegment> remote, local;
  for (int index = 0; index < 27; ++index) {
    const Int3 direction{index / 9 - 1, (index / 3) % 3 - 1, index % 3 - 1};
    if (direction == Int3{0, 0, 0}) continue;
    const int peer = decomp.neighbour_at(direction);
    if (peer < 0) continue;
    HaloSegment s;
    s.direction = direction;
    s.peer = peer;
    s.local = peer == decomp.rank;
    for (int a = 0; a < 3; ++a) {
      const int n = shape.cells[a];
      switch (direction[a]) {
        case -1:
          s.send_lo[a] = g, s.recv_lo[a] = g - width, s.dims[a] = width;
          break;
        case 1:
          s.send_lo[a] = g + n - width, s.recv_lo[a] = g + n, s.dims[a] = width;
          break;
        default:
          s.send_lo[a] = g, s.recv_lo[a] = g, s.dims[a] = n;
          break;
      }
    }
    (s.local ? local : remote).push_back(s);
  }
  remote.insert(remote.end(), local.begin(), local.end());
  return remote;
}

std::vector<HaloSegment> plan_halo_by_rows(const grid::Decomposition& decomp, const fields::LocalShape& shape) {
  require(decomp.wraps_onto_itself(0), "halo exchange by rows: x must be periodic and not split between ranks");
  std::vector<HaloSegment> rows, x_faces;
  for (HaloSegment s : plan_halo(decomp, shape, 1)) {
    if (s.direction[0] != 0) {
      // The x edges and corners lie on the rows of the y and z segments; the x faces stay apart.
      if (s.direction[1] == 0 && s.direction[2] == 0) x_faces.push_back(s);
      continue;
    }
    s.send_lo[0] = s.recv_lo[0] = shape.ghost - 1;
    s.dims[0] = shape.cells[0] + 2;
    rows.push_back(s);
  }
  rows.insert(rows.end(), x_faces.begin(), x_faces.end());
  return rows;
}

std::vector<HaloSegment> faces_along(std::vector<HaloSegment> segments, int axis) {
  std::erase_if(segments, [&](const HaloSegment& s) {
    for (int a = 0; a < 3; ++a) {
      if ((a == axis) != (s.direction[a] != 0)) return true;
    }
    return false;
  });
  return segments;
}

}  // namespace eddy::parallel
