#pragma once
// Moving a whole multigrid level between its ranks' blocks and one copy of it: every rank's block layout, and the
// owned cells of a field packed rank by rank, as the dense bottom solve and the gathered coarse levels collect them.
#include "grid/decomposition.hpp"
#include "solver/poisson_level.hpp"

#include <vector>

namespace eddy::solver {

/// One rank's block of a level: its first global cell and its cells per axis.
struct BlockLayout {
  Int3 offset{0, 0, 0};
  Int3 cells{0, 0, 0};
  /// Cells of the block.
  long long count() const { return static_cast<long long>(cells[0]) * cells[1] * cells[2]; }
};

/// Every rank's block of `decomp`, rank by rank (collective over `comm`).
std::vector<BlockLayout> gather_block_layouts(const grid::Decomposition& decomp, MPI_Comm comm);

/// The most cells of any rank's block: the slot each rank fills in a gathered buffer.
int gather_slot(const std::vector<BlockLayout>& layouts);

/// Copies the owned cells of `f` (x fastest) into `packed`, from entry `start` on.
void pack_owned(Buffer packed, Field f, const fields::LocalShape& shape, int start = 0);

}  // namespace eddy::solver
