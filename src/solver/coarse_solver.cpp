#include "solver/coarse_solver.hpp"

#include "core/error.hpp"
#include "solver/communication_scope.hpp"
#include "solver/level_gather.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace eddy::solver {
namespace {

int cell_index(const Int3& c, const Int3& n) { return c[0] + n[0] * (c[1] + n[1] * c[2]); }

// The level's operator over all cells as a dense row-major matrix, boundary conditions folded in as the ghost
// filling does them: neumann ghost = cell, dirichlet ghost = -cell, periodic ghost = wrapped cell. In the singular
// case the rank-one term (d / N) 1 1^T is added: for a mean-free b the solution of the modified system is the
// zero-mean solution of the original one (1^T A = 0, so 1^T x must vanish).
std::vector<Real> level_matrix(const PoissonLevel& level) {
  const Int3 n = level.decomp.global.cells;
  const int size = n[0] * n[1] * n[2];
  const auto w = level.weights();
  const Real weight[3] = {w.x, w.y, w.z};
  std::vector<Real> a(static_cast<std::size_t>(size) * size, Real(0));
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i) {
        const Int3 cell{i, j, k};
        const int row = cell_index(cell, n);
        for (int axis = 0; axis < 3; ++axis) {
          if (weight[axis] == 0) continue;
          a[row * size + row] -= 2 * weight[axis];
          for (int side = 0; side < 2; ++side) {
            Int3 other = cell;
            other[axis] += side == 0 ? -1 : 1;
            if (other[axis] >= 0 && other[axis] < n[axis]) {
              a[row * size + cell_index(other, n)] += weight[axis];
              continue;
            }
            switch (level.faces[2 * axis + side]) {
              case PressureBoundary::periodic:
                other[axis] = (other[axis] + n[axis]) % n[axis];
                a[row * size + cell_index(other, n)] += weight[axis];
                break;
              case PressureBoundary::neumann:
                a[row * size + row] += weight[axis];
                break;
              case PressureBoundary::dirichlet:
                a[row * size + row] -= weight[axis];
                break;
            }
          }
        }
      }
    }
  }
  if (level.singular()) {
    const Real shift = 2 * (w.x + w.y + w.z) / size;
    for (auto& entry : a) entry += shift;
  }
  return a;
}

// Inverse by Gauss-Jordan elimination with partial pivoting (N is a few hundred at most).
std::vector<Real> invert(std::vector<Real> a, int size) {
  std::vector<Real> inv(a.size(), Real(0));
  for (int r = 0; r < size; ++r) inv[r * size + r] = 1;
  for (int col = 0; col < size; ++col) {
    int pivot = col;
    for (int r = col + 1; r < size; ++r) {
      if (std::abs(a[r * size + col]) > std::abs(a[pivot * size + col])) pivot = r;
    }
    require(a[pivot * size + col] != 0, "multigrid: the coarsest-level operator is singular");
    if (pivot != col) {
      for (int c = 0; c < size; ++c) {
        std::swap(a[pivot * size + c], a[col * size + c]);
        std::swap(inv[pivot * size + c], inv[col * size + c]);
      }
    }
    const Real scale = 1 / a[col * size + col];
    for (int c = 0; c < size; ++c) {
      a[col * size + c] *= scale;
      inv[col * size + c] *= scale;
    }
    for (int r = 0; r < size; ++r) {
      const Real factor = a[r * size + col];
      if (r == col || factor == 0) continue;
      for (int c = 0; c < size; ++c) {
        a[r * size + c] -= factor * a[col * size + c];
        inv[r * size + c] -= factor * inv[col * size + c];
      }
    }
  }
  return inv;
}

// x = inverse (column values - mean) for the rank's owned cells, row p being the p-th owned cell in x-fastest order:
// a team of (up to) a warp per row, its lanes striding along the row. `column(q)` is the value of b that column q of
// the inverse multiplies (a column of zeros may stand for no cell: it adds nothing to the mean either). With one
// thread per row, each thread would walk all the columns twice.
template <class Column>
void apply_inverse(const char* label, Field x, const DeviceInverse& inverse, const PoissonLevel& level, Column column) {
  const int nx = level.shape.cells[0], ny = level.shape.cells[1], g = level.shape.ghost;
  const int rows = static_cast<int>(inverse.extent(0)), columns = static_cast<int>(inverse.extent(1));
  const Real mean_weight = level.singular() ? Real(1) / static_cast<Real>(level.global_cells()) : Real(0);
  using Team = Kokkos::TeamPolicy<ExecSpace>;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const Team teams(rows, 32);
#else
  const Team teams(rows, Kokkos::AUTO);
#endif
  Kokkos::parallel_for(
      label, teams, KOKKOS_LAMBDA(const Team::member_type& team) {
        const int row = team.league_rank();
        Real mean = 0;
        if (mean_weight != 0) {
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, columns), [&](int q, Real& sum) { sum += column(q); }, mean);
          mean *= mean_weight;
        }
        Real sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, columns),
            [&](int q, Real& partial) { partial += inverse(row, q) * (column(q) - mean); }, sum);
        Kokkos::single(Kokkos::PerTeam(team), [&] { x(row % nx + g, row / nx % ny + g, row / (nx * ny) + g) = sum; });
      });
}

}  // namespace

DenseCoarseSolver::DenseCoarseSolver(const PoissonLevel& level, const parallel::Reducer& reducer)
    : level_(level), reducer_(&reducer) {
  require(fits(level), "multigrid: the coarsest level is too large for the dense solver");
  const MPI_Comm comm = reducer.context().comm();
  parallel::check_mpi(MPI_Comm_size(comm, &ranks_), "MPI_Comm_size(coarse solver)");
  const auto& d = level.decomp;
  const Int3 n = d.global.cells;
  const auto layouts = gather_block_layouts(d, comm);
  // Each rank's owned cells fill a slot of the gathered values; a slot holds the most cells of any rank.
  const int slot = gather_slot(layouts);
  std::vector<int> column_cell(static_cast<std::size_t>(ranks_) * slot, -1);  // global cell of each column
  int covered = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto& l = layouts[r];
    int q = r * slot;
    for (int k = 0; k < l.cells[2]; ++k) {
      for (int j = 0; j < l.cells[1]; ++j) {
        for (int i = 0; i < l.cells[0]; ++i, ++covered) {
          column_cell[q++] = cell_index({l.offset[0] + i, l.offset[1] + j, l.offset[2] + k}, n);
        }
      }
    }
  }
  const int size = static_cast<int>(level.global_cells());
  require(covered == size, "multigrid: the coarse blocks do not tile the level");
  const std::vector<Real> inverse = invert(level_matrix(level), size);
  const int rows = d.local_cells[0] * d.local_cells[1] * d.local_cells[2];
  // Row-major, so that the lanes of a row's team read neighbouring words.
  inverse_ = DeviceInverse("coarse::inverse", rows, column_cell.size());
  auto host = Kokkos::create_mirror_view(inverse_);
  int p = 0;
  for (int k = 0; k < d.local_cells[2]; ++k) {
    for (int j = 0; j < d.local_cells[1]; ++j) {
      for (int i = 0; i < d.local_cells[0]; ++i, ++p) {
        const auto row = static_cast<std::size_t>(cell_index({d.offset[0] + i, d.offset[1] + j, d.offset[2] + k}, n));
        for (std::size_t q = 0; q < column_cell.size(); ++q) {
          host(p, q) = column_cell[q] < 0 ? Real(0) : inverse[row * size + column_cell[q]];
        }
      }
    }
  }
  Kokkos::deep_copy(inverse_, host);
  if (ranks_ > 1) {
    packed_ = Buffer("coarse::packed_rhs", slot);
    gathered_ = Buffer("coarse::gathered_rhs", column_cell.size());
  }
}

void DenseCoarseSolver::solve(Field x, Field b) {
  if (ranks_ == 1) {
    // The columns are the owned cells in x-fastest order: b is read in place.
    const int nx = level_.shape.cells[0], ny = level_.shape.cells[1], g = level_.shape.ghost;
    return apply_inverse(
        "coarse::dense_solve", x, inverse_, level_,
        KOKKOS_LAMBDA(int q) { return b(q % nx + g, q / nx % ny + g, q / (nx * ny) + g); });
  }
  pack_owned(packed_, b, level_.shape);
  {
    CommunicationScope scope(level_.timers, Phase::poisson_reduction, reducer_->blocks_host());
    reducer_->allgather(packed_, gathered_);
  }
  const Buffer gathered = gathered_;
  apply_inverse(
      "coarse::dense_solve", x, inverse_, level_, KOKKOS_LAMBDA(int q) { return gathered(q); });
}

}  // namespace eddy::solver
