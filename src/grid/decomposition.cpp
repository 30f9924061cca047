#include "grid/decomposition.hpp"

#include "core/error.hpp"

#include <limits>
#include <string>

namespace eddy::grid {
namespace {

// Total area of the interfaces between ranks (periodic wraps included) for the split `dims`: the halo traffic of a
// step.
double halo_surface(const GlobalGrid& grid, const Int3& dims) {
  double surface = 0;
  for (int a = 0; a < 3; ++a) {
    const int cuts = grid.periodic[a] ? (dims[a] > 1 ? dims[a] : 0) : dims[a] - 1;
    surface += static_cast<double>(cuts) * grid.cells[(a + 1) % 3] * grid.cells[(a + 2) % 3];
  }
  return surface;
}

}  // namespace

int Decomposition::neighbour_at(Int3 direction) const {
  Int3 c = coords;
  for (int a = 0; a < 3; ++a) {
    c[a] += direction[a];
    if (c[a] >= 0 && c[a] < dims[a]) continue;
    if (!global.periodic[a]) return -1;
    c[a] = (c[a] % dims[a] + dims[a]) % dims[a];
  }
  return (c[0] * dims[1] + c[1]) * dims[2] + c[2];
}

int block_size(int cells, int parts, int coord) { return cells / parts + (coord < cells % parts ? 1 : 0); }

int block_offset(int cells, int parts, int coord) {
  const int base = cells / parts, extra = cells % parts;
  return coord * base + (coord < extra ? coord : extra);
}

Int3 choose_process_dims(const GlobalGrid& grid, int ranks, Int3 requested) {
  require_alike(ranks >= 1, "the rank count must be at least 1");
  if (grid.dim == 2) {
    require_alike(requested[2] <= 1, "parallel.process_grid: a 2D grid cannot be split in z");
    requested[2] = 1;
  }
  // The pressure solver relaxes a stretched axis line by line, each line on one rank.
  const Int3 given = requested;
  for (int a = 0; a < 3; ++a) {
    require_alike(!grid.stretched(a) || requested[a] <= 1,
                  "parallel.process_grid: a stretched axis is not split across ranks");
    if (grid.stretched(a)) requested[a] = 1;
  }
  Int3 best{0, 0, 0};
  double best_surface = std::numeric_limits<double>::max();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py) continue;
      const Int3 dims{px, py, ranks / px / py};
      bool allowed = true;
      for (int a = 0; a < 3; ++a) {
        if (requested[a] > 0 && dims[a] != requested[a]) allowed = false;
        if (dims[a] > grid.cells[a]) allowed = false;
      }
      if (!allowed) continue;
      const double surface = halo_surface(grid, dims);
      // Ties go to splits of the slow axes (z, then y): their faces are contiguous in memory.
      const bool better =
          surface < best_surface * (1 - 1e-12) ||
          (surface <= best_surface * (1 + 1e-12) && (dims[2] > best[2] || (dims[2] == best[2] && dims[1] > best[1])));
      if (better) {
        best = dims;
        best_surface = surface;
      }
    }
  }
  if (best[0] == 0) {
    const std::string cells = std::to_string(grid.cells[0]) + " x " + std::to_string(grid.cells[1]) +
                              (grid.dim == 3 ? " x " + std::to_string(grid.cells[2]) : "");
    const bool automatic = given[0] <= 0 && given[1] <= 0 && (grid.dim == 2 || given[2] <= 0);
    bool uniform_axis = false;
    for (int a = 0; a < grid.dim; ++a) uniform_axis = uniform_axis || !grid.stretched(a);
    if (!uniform_axis) {
      throw Error(
          "domain.stretching: every axis is stretched, and the pressure solver's lines along a stretched axis "
          "stay on one rank, so " +
              std::to_string(ranks) +
              " ranks cannot share the grid; allowed: one rank, "
              "or an axis left uniform to split",
          Error::Ranks::every);
    }
    if (automatic) {
      throw Error("domain.cells: " + std::to_string(ranks) + " ranks cannot share a grid of " + cells +
                      " cells: every rank needs at least one cell along each axis; run on fewer ranks",
                  Error::Ranks::every);
    }
    std::string asked = "[" + std::to_string(requested[0]) + ", " + std::to_string(requested[1]);
    if (grid.dim == 3) asked += ", " + std::to_string(requested[2]);
    throw Error("parallel.process_grid: got " + asked + "] (0 = automatic) for " + std::to_string(ranks) +
                    " ranks and a grid of " + cells +
                    " cells; allowed: a split whose product is the rank count, with at most as many ranks as cells "
                    "along each axis",
                Error::Ranks::every);
  }
  return best;
}

Decomposition plan_decomposition(const GlobalGrid& grid, int ranks, int rank, Int3 requested_dims) {
  Decomposition d;
  d.global = grid;
  d.dims = choose_process_dims(grid, ranks, requested_dims);
  d.rank = rank;
  d.size = ranks;
  // Rank order matches MPI_Cart_create with reorder disabled: the last axis varies fastest.
  int rest = rank;
  for (int a = 2; a >= 0; --a) {
    d.coords[a] = rest % d.dims[a];
    rest /= d.dims[a];
  }
  for (int a = 0; a < 3; ++a) {
    d.local_cells[a] = block_size(grid.cells[a], d.dims[a], d.coords[a]);
    d.offset[a] = block_offset(grid.cells[a], d.dims[a], d.coords[a]);
    for (int side = 0; side < 2; ++side) {
      Int3 direction{0, 0, 0};
      direction[a] = side == 0 ? -1 : 1;
      d.neighbour[a][side] = d.neighbour_at(direction);
    }
  }
  return d;
}

Decomposition decompose(const GlobalGrid& grid, MPI_Comm comm, Int3 requested_dims) {
  int rank = 0, size = 1;
  require(MPI_Comm_rank(comm, &rank) == MPI_SUCCESS && MPI_Comm_size(comm, &size) == MPI_SUCCESS,
          "decomposition: MPI_Comm_rank/MPI_Comm_size failed");
  Decomposition d = plan_decomposition(grid, size, rank, requested_dims);
  int periods[3] = {grid.periodic[0], grid.periodic[1], grid.periodic[2]};
  // No reordering: ranks in the Cartesian communicator equal ranks in `comm` (and in the NCCL communicator).
  require(MPI_Cart_create(comm, 3, d.dims.data(), periods, 0, &d.comm) == MPI_SUCCESS,
          "decomposition: MPI_Cart_create failed");
  return d;
}

}  // namespace eddy::grid
