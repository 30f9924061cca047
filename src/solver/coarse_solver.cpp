#include "solver/coarse_solver.hpp"

#include "core/error.hpp"
#include "solver/communication_scope.hpp"

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

// x = inverse (b - mean) on a level held by one rank, whose global cell index is the owned cells' x-fastest order:
// a team of (up to) a warp per row, its lanes striding along the row. With one thread per row a 64-cell bottom solve
// took 17.8 us on an H200, each thread walking all 64 columns twice (the mean, then the row).
void apply_inverse_on_device(Field x, Field b, const DeviceInverse& inverse, const PoissonLevel& level) {
  const int nx = level.shape.cells[0], ny = level.shape.cells[1], nz = level.shape.cells[2];
  const int g = level.shape.ghost, size = nx * ny * nz;
  const bool singular = level.singular();
  using Team = Kokkos::TeamPolicy<ExecSpace>;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  const Team rows(size, 32);
#else
  const Team rows(size, Kokkos::AUTO);
#endif
  Kokkos::parallel_for(
      "coarse::dense_solve", rows, KOKKOS_LAMBDA(const Team::member_type& team) {
        const int row = team.league_rank();
        const auto b_at = [&](int q) { return b(q % nx + g, q / nx % ny + g, q / (nx * ny) + g); };
        Real mean = 0;
        if (singular) {
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, size), [&](int q, Real& sum) { sum += b_at(q); }, mean);
          mean /= size;
        }
        Real sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, size),
            [&](int q, Real& partial) { partial += inverse(row, q) * (b_at(q) - mean); }, sum);
        Kokkos::single(Kokkos::PerTeam(team), [&] { x(row % nx + g, row / nx % ny + g, row / (nx * ny) + g) = sum; });
      });
}

}  // namespace

DenseCoarseSolver::DenseCoarseSolver(const PoissonLevel& level, parallel::Context& context)
    : level_(level), comm_(level.decomp.comm != MPI_COMM_NULL ? level.decomp.comm : context.comm()) {
  require(fits(level), "multigrid: the coarsest level is too large for the dense solver");
  parallel::check_mpi(MPI_Comm_size(comm_, &ranks_), "MPI_Comm_size(coarse solver)");
  const auto& d = level.decomp;
  const Int3 n = d.global.cells;
  int layout[6] = {d.offset[0], d.offset[1], d.offset[2], d.local_cells[0], d.local_cells[1], d.local_cells[2]};
  std::vector<int> layouts(6 * static_cast<std::size_t>(ranks_));
  parallel::check_mpi(MPI_Allgather(layout, 6, MPI_INT, layouts.data(), 6, MPI_INT, comm_),
                      "MPI_Allgather(coarse layout)");
  for (int r = 0; r < ranks_; ++r) {
    const int* l = &layouts[6 * r];
    displacements_.push_back(static_cast<int>(gathered_cell_.size()));
    counts_.push_back(l[3] * l[4] * l[5]);
    for (int k = 0; k < l[5]; ++k) {
      for (int j = 0; j < l[4]; ++j) {
        for (int i = 0; i < l[3]; ++i) gathered_cell_.push_back(cell_index({l[0] + i, l[1] + j, l[2] + k}, n));
      }
    }
  }
  for (int k = 0; k < d.local_cells[2]; ++k) {
    for (int j = 0; j < d.local_cells[1]; ++j) {
      for (int i = 0; i < d.local_cells[0]; ++i) {
        own_cell_.push_back(cell_index({d.offset[0] + i, d.offset[1] + j, d.offset[2] + k}, n));
      }
    }
  }
  const int size = static_cast<int>(level.global_cells());
  require(static_cast<int>(gathered_cell_.size()) == size, "multigrid: the coarse blocks do not tile the level");
  inverse_ = invert(level_matrix(level), size);
  if (on_device()) {
    // Row-major, so that the lanes of a row's team read neighbouring words.
    device_inverse_ = DeviceInverse("coarse::inverse", size, size);
    auto host = Kokkos::create_mirror_view(device_inverse_);
    for (int r = 0; r < size; ++r) {
      for (int q = 0; q < size; ++q) host(r, q) = inverse_[static_cast<std::size_t>(r) * size + q];
    }
    Kokkos::deep_copy(device_inverse_, host);
    return;
  }
  local_.resize(own_cell_.size());
  gathered_.resize(size);
  global_b_.resize(size);
  host_x_ = Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::HostSpace>("coarse::x", level.shape.extent(0),
                                                                         level.shape.extent(1), level.shape.extent(2));
  host_b_ = Kokkos::View<Real***, Kokkos::LayoutLeft, Kokkos::HostSpace>("coarse::b", level.shape.extent(0),
                                                                         level.shape.extent(1), level.shape.extent(2));
}

void DenseCoarseSolver::solve(Field x, Field b) {
  if (on_device()) return apply_inverse_on_device(x, b, device_inverse_, level_);
  Kokkos::deep_copy(host_b_, b);
  Kokkos::fence("coarse::gathered_rhs");
  const int g = level_.shape.ghost;
  const Int3 c = level_.shape.cells;
  std::size_t p = 0;
  for (int k = 0; k < c[2]; ++k) {
    for (int j = 0; j < c[1]; ++j) {
      for (int i = 0; i < c[0]; ++i) local_[p++] = host_b_(i + g, j + g, k + g);
    }
  }
  const int size = static_cast<int>(global_b_.size());
  if (ranks_ > 1) {
    CommunicationScope scope(level_.timers, Phase::poisson_reduction, true);
    parallel::check_mpi(MPI_Allgatherv(local_.data(), static_cast<int>(local_.size()), MPI_DOUBLE, gathered_.data(),
                                       counts_.data(), displacements_.data(), MPI_DOUBLE, comm_),
                        "MPI_Allgatherv(coarse rhs)");
  } else {
    gathered_ = local_;
  }
  Real mean = 0;
  for (int q = 0; q < size; ++q) {
    global_b_[gathered_cell_[q]] = gathered_[q];
    mean += gathered_[q];
  }
  mean = level_.singular() ? mean / size : Real(0);
  p = 0;
  for (int k = 0; k < c[2]; ++k) {
    for (int j = 0; j < c[1]; ++j) {
      for (int i = 0; i < c[0]; ++i) {
        const Real* row = &inverse_[static_cast<std::size_t>(own_cell_[p++]) * size];
        Real sum = 0;
        for (int q = 0; q < size; ++q) sum += row[q] * (global_b_[q] - mean);
        host_x_(i + g, j + g, k + g) = sum;
      }
    }
  }
  Kokkos::deep_copy(x, host_x_);
}

}  // namespace eddy::solver
