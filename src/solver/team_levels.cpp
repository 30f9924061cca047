#include "solver/team_levels.hpp"

#include "core/error.hpp"
#include "solver/laplacian.hpp"
#include "solver/prolongation.hpp"
#include "solver/red_black.hpp"

#include <algorithm>

namespace eddy::solver {
namespace {

using Team = Kokkos::TeamPolicy<ExecSpace>;
using Member = Team::member_type;
using ScratchReals = Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// Points of a level in scratch: every point with its ghosts in 3D, the owned plane with its in-plane ghosts in 2D.
Kokkos::Array<int, 3> scratch_extent(const PoissonLevel& level) {
  const auto& n = level.shape.cells;
  return {n[0] + 2, n[1] + 2, level.decomp.global.dim == 3 ? n[2] + 2 : 1};
}

// The iterate and right-hand side of a level in scratch.
long long scratch_reals(const PoissonLevel& level) {
  const auto e = scratch_extent(level);
  return 2LL * e[0] * e[1] * e[2];
}

bool qualifies(const PoissonLevel& level) {
  const auto& d = level.decomp;
  return d.dims[0] * d.dims[1] * d.dims[2] == 1 && level.shape.ghost == 1 && colour_passes_read_no_ghosts(level);
}

// One level's field in scratch memory, addressed by the view indices of its Field (ghost width one; in 2D the owned
// plane k = 1 is the only one held).
struct ScratchField {
  Real* data;
  Strides strides;
  int k0;
  KOKKOS_INLINE_FUNCTION Real& operator()(int i, int j, int k) const { return data[strides.at(i, j, k - k0)]; }
};

// View indices (ghost width one) of point p of a box of n[0] x n[1] x n[2] points, x fastest, starting at `first`.
KOKKOS_INLINE_FUNCTION void box_point(int p, const Kokkos::Array<int, 3>& n, int first, int (&idx)[3]) {
  idx[0] = p % n[0] + first;
  idx[1] = p / n[0] % n[1] + first;
  idx[2] = p / (n[0] * n[1]) + first;
}

}  // namespace

int TeamLevels::first_level(const std::vector<PoissonLevel>& levels) {
  const int count = static_cast<int>(levels.size());
  const long long capacity = Team::scratch_size_max(0) / static_cast<long long>(sizeof(Real));
  long long reals = 0;
  int first = count;
  for (int l = count - 1; l >= 1; --l) {
    reals += scratch_reals(levels[l]);
    if (!qualifies(levels[l]) || reals > capacity || count - l > max_levels) break;
    first = l;
  }
  return first < count - 1 ? first : count;
}

TeamLevels::TeamLevels(const std::vector<PoissonLevel>& levels, const std::vector<Int3>& factors,
                       const DenseCoarseSolver& bottom, const config::PoissonConfig& config)
    : count_(static_cast<int>(levels.size())),
      pre_smooth_(config.pre_smooth),
      post_smooth_(config.post_smooth),
      three_d_(levels.front().decomp.global.dim == 3),
      mean_weight_(levels.back().singular() ? Real(1) / static_cast<Real>(levels.back().global_cells()) : Real(0)),
      inverse_(bottom.inverse()) {
  levels_ = Kokkos::View<Level*, MemSpace>("team_levels::levels", levels.size());
  auto host = Kokkos::create_mirror_view(levels_);
  require(count_ >= 2 && count_ <= max_levels && factors.size() == levels.size(),
          "multigrid: the team cycle takes 2 to 8 levels, each with its coarsening factor");
  require(config.smoother == config::SmootherType::red_black_gauss_seidel,
          "multigrid: the team cycle smooths by red-black Gauss-Seidel only");
  int offset = 0;
  for (int l = 0; l < count_; ++l) {
    require(qualifies(levels[l]), "multigrid: a level of the team cycle is split between ranks or reads ghosts");
    Level& level = host(l);
    level.stencil = colour_stencil(levels[l], config.relaxation, true);
    level.extent = scratch_extent(levels[l]);
    for (int a = 0; a < 3; ++a) level.factor[a] = factors[l][a];
    for (int f = 0; f < 6; ++f) {
      const auto face = levels[l].faces[f];
      level.ghost_sign[f] = face == PressureBoundary::periodic ? 0 : (face == PressureBoundary::neumann ? 1 : -1);
    }
    const int points = level.extent[0] * level.extent[1] * level.extent[2];
    level.x = offset;
    level.b = offset + points;
    offset += 2 * points;
  }
  scratch_reals_ = offset;
  Kokkos::deep_copy(levels_, host);
}

void TeamLevels::cycle(Field x, Field b, bool from_zero) const {
  // The levels stay in device memory: a kernel argument of their size would make Kokkos launch through constant
  // memory, which waits on the host and so cannot be recorded into a CUDA graph.
  const Kokkos::View<const Level*, MemSpace> levels = levels_;
  const int count = count_, pre = pre_smooth_, post = post_smooth_, reals = scratch_reals_;
  const bool three_d = three_d_;
  const Real mean_weight = mean_weight_;
  const DeviceInverse inverse = inverse_;
  const auto sweep = KOKKOS_LAMBDA(const Member& team) {
    Real* scratch = ScratchReals(team.team_scratch(0), reals).data();
    const auto field = [&](int t, bool rhs) {
      const Level& l = levels(t);
      const Strides s{l.extent[0], static_cast<long long>(l.extent[0]) * l.extent[1]};
      return ScratchField{scratch + (rhs ? l.b : l.x), s, three_d ? 0 : 1};
    };
    const auto owned = [&](int t) {
      const auto& n = levels(t).stencil.n;
      return n[0] * n[1] * n[2];
    };
    const auto all_points = [&](int t) {
      const auto& e = levels(t).extent;
      return e[0] * e[1] * e[2];
    };
    // The ghosts of a level's iterate: a periodic face wraps, a physical one mirrors the cell with its sign (edges and
    // corners take the product of the signs of their faces).
    const auto fill_ghosts = [&](int t) {
      const Level& l = levels(t);
      const ScratchField u = field(t, false);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, all_points(t)), [&](int p) {
        int idx[3];
        box_point(p, l.extent, 0, idx);
        if (!three_d) idx[2] = 1;
        int src[3] = {idx[0], idx[1], idx[2]};
        Real factor = 1;
        bool ghost = false;
        for (int a = 0; a < (three_d ? 3 : 2); ++a) {
          const int n = l.stencil.n[a];
          if (idx[a] == 0 || idx[a] == n + 1) {
            const int side = idx[a] == 0 ? 0 : 1;
            const Real sign = l.ghost_sign[2 * a + side];
            ghost = true;
            if (sign == 0) {
              src[a] = side == 0 ? n : 1;
            } else {
              src[a] = side == 0 ? 1 : n;
              factor *= sign;
            }
          }
        }
        if (ghost) u(idx[0], idx[1], idx[2]) = factor * u(src[0], src[1], src[2]);
      });
      team.team_barrier();
    };
    // Red-black sweeps of a level's iterate in place (solver/red_black.hpp), its ghosts set after the last one.
    const auto smooth = [&](int t, int sweeps) {
      const ColourStencil& s = levels(t).stencil;
      const ScratchField u = field(t, false), rhs = field(t, true);
      for (int sweep_index = 0; sweep_index < sweeps; ++sweep_index) {
        for (int colour = 0; colour < 2; ++colour) {
          Kokkos::parallel_for(Kokkos::TeamVectorRange(team, owned(t)), [&](int p) {
            int idx[3];
            box_point(p, s.n, 0, idx);
            if (!s.has_colour(idx[0], idx[1], idx[2], colour)) return;
            Real& centre = u(idx[0] + 1, idx[1] + 1, idx[2] + 1);
            centre = s.relaxed(PointNeighbours{&centre, u.strides}, rhs(idx[0] + 1, idx[1] + 1, idx[2] + 1), centre,
                               idx[0], idx[1], idx[2]);
          });
          team.team_barrier();
        }
      }
      if (sweeps > 0) fill_ghosts(t);
    };

    // The entry level's right-hand side and iterate.
    {
      const ScratchField u = field(0, false), rhs = field(0, true);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, all_points(0)), [&](int p) {
        int idx[3];
        box_point(p, levels(0).extent, 0, idx);
        if (!three_d) idx[2] = 1;
        u(idx[0], idx[1], idx[2]) = from_zero ? Real(0) : x(idx[0], idx[1], idx[2]);
        rhs(idx[0], idx[1], idx[2]) = b(idx[0], idx[1], idx[2]);
      });
      team.team_barrier();
    }
    // Down: smooth, restrict the residual; each coarser level starts from zero.
    for (int t = 0; t + 1 < count; ++t) {
      if (t > 0) {
        Real* u = scratch + levels(t).x;
        Kokkos::parallel_for(Kokkos::TeamVectorRange(team, all_points(t)), [&](int p) { u[p] = 0; });
        team.team_barrier();
      }
      smooth(t, pre);
      const Level& fine = levels(t);
      const ScratchField u = field(t, false), rhs = field(t, true), coarse_rhs = field(t + 1, true);
      const auto& f = fine.factor;
      const Real inv_children = Real(1) / (f[0] * f[1] * f[2]);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, owned(t + 1)), [&](int p) {
        int c[3];
        box_point(p, levels(t + 1).stencil.n, 1, c);
        const int i0 = 1 + f[0] * (c[0] - 1), j0 = 1 + f[1] * (c[1] - 1), k0 = 1 + f[2] * (c[2] - 1);
        Real sum = 0;
        for (int dk = 0; dk < f[2]; ++dk) {
          for (int dj = 0; dj < f[1]; ++dj) {
            for (int di = 0; di < f[0]; ++di) {
              const int i = i0 + di, j = j0 + dj, k = k0 + dk;
              sum += rhs(i, j, k) - laplacian_at(u, i, j, k, fine.stencil.w);
            }
          }
        }
        coarse_rhs(c[0], c[1], c[2]) = sum * inv_children;
      });
      team.team_barrier();
    }
    // The bottom: x = inverse (b - its mean where singular), row by row (solver/coarse_solver.hpp).
    {
      const int bottom = count - 1, rows = owned(bottom);
      const auto& n = levels(bottom).stencil.n;
      const ScratchField u = field(bottom, false), rhs = field(bottom, true);
      const auto rhs_of = [&](int q) { return rhs(q % n[0] + 1, q / n[0] % n[1] + 1, q / (n[0] * n[1]) + 1); };
      Real mean = 0;
      if (mean_weight != 0) {
        Kokkos::parallel_reduce(
            Kokkos::TeamVectorRange(team, rows), [&](int q, Real& sum) { sum += rhs_of(q); }, mean);
        mean *= mean_weight;
      }
      // A row per thread, its vector lanes striding along the row.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](int row) {
        Real sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, rows),
            [&](int q, Real& partial) { partial += inverse(row, q) * (rhs_of(q) - mean); }, sum);
        Kokkos::single(Kokkos::PerThread(team),
                       [&] { u(row % n[0] + 1, row / n[0] % n[1] + 1, row / (n[0] * n[1]) + 1) = sum; });
      });
      team.team_barrier();
      fill_ghosts(bottom);
    }
    // Up: add the interpolated correction, smooth.
    for (int t = count - 2; t >= 0; --t) {
      const Level& fine = levels(t);
      const ScratchField u = field(t, false), coarse = field(t + 1, false);
      const auto& f = fine.factor;
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, owned(t)), [&](int p) {
        int idx[3];
        box_point(p, fine.stencil.n, 1, idx);
        const auto ax = interpolation_axis(idx[0], 1, 1, f[0]);
        const auto ay = interpolation_axis(idx[1], 1, 1, f[1]);
        const auto az = interpolation_axis(idx[2], 1, 1, f[2]);
        const Real* parent = &coarse(ax.parent, ay.parent, az.parent);
        const long long dx = ax.partner - ax.parent, dy = coarse.strides.row * (ay.partner - ay.parent),
                        dz = coarse.strides.plane * (az.partner - az.parent);
        const auto along_x = [&](long long o) {
          return ax.parent_weight * parent[o] + ax.partner_weight * parent[o + dx];
        };
        const auto along_xy = [&](long long o) {
          return ay.parent_weight * along_x(o) + ay.partner_weight * along_x(o + dy);
        };
        u(idx[0], idx[1], idx[2]) += az.parent_weight * along_xy(0) + az.partner_weight * along_xy(dz);
      });
      team.team_barrier();
      if (post == 0) fill_ghosts(t);
      smooth(t, post);
    }
    // The entry level's iterate, ghosts included, back to its field.
    const ScratchField u = field(0, false);
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, all_points(0)), [&](int p) {
      int idx[3];
      box_point(p, levels(0).extent, 0, idx);
      if (!three_d) idx[2] = 1;
      x(idx[0], idx[1], idx[2]) = u(idx[0], idx[1], idx[2]);
    });
  };
  const auto bytes = Kokkos::PerTeam(static_cast<std::size_t>(reals) * sizeof(Real));
  const int lanes = Team::vector_length_max();
  if (team_size_ == 0) {
    team_size_ = std::min(1024 / lanes,
                          Team(1, 1, lanes).set_scratch_size(0, bytes).team_size_max(sweep, Kokkos::ParallelForTag()));
  }
  Kokkos::parallel_for("poisson::team_levels", Team(1, team_size_, lanes).set_scratch_size(0, bytes), sweep);
}

}  // namespace eddy::solver
