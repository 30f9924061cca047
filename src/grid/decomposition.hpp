#pragma once
// Cartesian domain decomposition: which block of the global grid this rank owns, and who its neighbours are.
#include "grid/grid.hpp"

#include <mpi.h>

namespace eddy::grid {

/// A rank's place in the process grid: local block, global offset, and neighbour ranks (-1 at a physical boundary).
struct Decomposition {
  GlobalGrid global;
  Int3 dims{1, 1, 1};
  Int3 coords{0, 0, 0};
  Int3 local_cells{1, 1, 1};
  Int3 offset{0, 0, 0};
  std::array<std::array<int, 2>, 3> neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};
  int rank = 0;
  int size = 1;
  MPI_Comm comm = MPI_COMM_NULL;

  /// True where this rank's block touches the low (side 0) or high (side 1) physical boundary of a non-periodic axis.
  bool on_boundary(int axis, int side) const { return neighbour[axis][side] < 0; }
  /// Rank at process-grid offset `direction` (entries -1/0/1: faces, edges, corners), periodic wrap; -1 if outside.
  int neighbour_at(Int3 direction) const;
  /// True along an axis that is periodic and not split: its ghosts mirror this rank's own cells.
  bool wraps_onto_itself(int axis) const { return dims[axis] == 1 && global.periodic[axis]; }
  /// Number of cells this rank owns.
  long long local_cell_count() const {
    return static_cast<long long>(local_cells[0]) * local_cells[1] * local_cells[2];
  }
};

/// Splits `ranks` into process dims minimising the halo surface; fixed entries (> 0) of `requested` are kept, and a
/// stretched axis is never split.
Int3 choose_process_dims(const GlobalGrid& grid, int ranks, Int3 requested = {0, 0, 0});

/// Cells owned by process coordinate `coord` of `parts` along an axis (the first `cells % parts` get one more).
int block_size(int cells, int parts, int coord);
/// First global cell index owned by process coordinate `coord`.
int block_offset(int cells, int parts, int coord);

/// Builds the decomposition on `comm` (a Cartesian communicator is created); throws eddy::Error if a block is empty.
Decomposition decompose(const GlobalGrid& grid, MPI_Comm comm, Int3 requested_dims = {0, 0, 0});

/// The decomposition rank `rank` of `ranks` would get, without MPI (for `eddy check`).
Decomposition plan_decomposition(const GlobalGrid& grid, int ranks, int rank, Int3 requested_dims = {0, 0, 0});

}  // namespace eddy::grid
