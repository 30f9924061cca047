#include "solver/gathered_levels.hpp"

#include "core/error.hpp"
#include "core/profile_region.hpp"
#include "solver/communication_scope.hpp"
#include "solver/level_gather.hpp"

namespace eddy::solver {

namespace {

// Every rank's owned b (and x, where x is allocated), laid rank after rank in `all` in slots of `slot` values per
// field, into the whole level's fields (`ghost` layers wide).
void unpack_gathered(Field whole_b, Field whole_x, Buffer all, const Kokkos::View<int* [6], MemSpace>& blocks, int slot,
                     int ghost) {
  const int ranks = static_cast<int>(blocks.extent(0));
  const bool with_x = whole_x.is_allocated();
  const int per_rank = with_x ? 2 * slot : slot, g = ghost;
  Kokkos::parallel_for(
      "gathered::unpack", Range(0, ranks * slot), KOKKOS_LAMBDA(int q) {
        const int r = q / slot, p = q % slot;
        const int nx = blocks(r, 3), ny = blocks(r, 4);
        if (p >= nx * ny * blocks(r, 5)) return;
        const int i = blocks(r, 0) + p % nx + g, j = blocks(r, 1) + p / nx % ny + g;
        const int k = blocks(r, 2) + p / (nx * ny) + g;
        whole_b(i, j, k) = all(r * per_rank + p);
        if (with_x) whole_x(i, j, k) = all(r * per_rank + slot + p);
      });
}

// x = the block of `whole` that `level` is, first-layer ghosts included (both have the level's ghost width).
void copy_block_with_ghosts(Field x, Field whole, const PoissonLevel& level) {
  const auto& d = level.decomp;
  const int ox = d.offset[0], oy = d.offset[1], oz = d.offset[2], g = level.shape.ghost;
  Kokkos::parallel_for(
      "gathered::scatter",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>(
          {0, 0, 0}, {d.local_cells[0] + 2 * g, d.local_cells[1] + 2 * g, d.local_cells[2] + 2 * g}),
      KOKKOS_LAMBDA(int i, int j, int k) { x(i, j, k) = whole(ox + i, oy + j, oz + k); });
}

}  // namespace

GatheredLevels::GatheredLevels(const PoissonLevel& level, const parallel::Reducer& reducer,
                               const config::PoissonConfig& config, SweepForm sweeps)
    : level_(level), whole_(level), reducer_(&reducer) {
  const auto layouts = gather_block_layouts(level.decomp, reducer.context().comm());
  const int ranks = static_cast<int>(layouts.size());
  slot_ = gather_slot(layouts);
  long long covered = 0;
  blocks_ = Kokkos::View<int* [6], MemSpace>("gathered::blocks", ranks);
  auto blocks = Kokkos::create_mirror_view(blocks_);
  for (int r = 0; r < ranks; ++r) {
    for (int a = 0; a < 3; ++a) {
      blocks(r, a) = layouts[r].offset[a];
      blocks(r, 3 + a) = layouts[r].cells[a];
    }
    covered += layouts[r].count();
  }
  require(covered == level.global_cells(), "multigrid: the gathered blocks do not tile the level");
  Kokkos::deep_copy(blocks_, blocks);

  whole_.decomp = grid::plan_decomposition(level.decomp.global, 1, 0);
  whole_.shape = fields::local_shape(whole_.decomp, level.shape.ghost, level.shape.pair_planes);
  alone_ = std::make_unique<parallel::Context>(MPI_COMM_SELF);
  alone_reducer_ = std::make_unique<parallel::Reducer>(*alone_, parallel::Transport::mpi);
  // Launched kernel by kernel: where the cycle above is a CUDA graph, these kernels are recorded into it.
  cycles_ = std::make_unique<Multigrid>(whole_, *alone_, *alone_reducer_, config, parallel::Transport::mpi, sweeps,
                                        CycleLaunch::kernel_by_kernel);
  whole_x_ = fields::make_field("gathered::x", whole_.shape);
  whole_b_ = fields::make_field("gathered::b", whole_.shape);
  packed_ = Buffer("gathered::packed", 2 * static_cast<std::size_t>(slot_));
  gathered_ = Buffer("gathered::all", 2 * static_cast<std::size_t>(slot_) * ranks);
}

GatheredLevels::~GatheredLevels() = default;

void GatheredLevels::cycle(Field x, Field b, config::CycleType type, bool from_zero) {
  ProfileRegion region("poisson::gathered_levels");
  gather(x, b, from_zero);
  cycles_->cycle_as(whole_x_, whole_b_, type);
  copy_block_with_ghosts(x, whole_x_, level_);
}

void GatheredLevels::gather(Field x, Field b, bool from_zero) {
  const int slot = slot_, per_rank = from_zero ? slot_ : 2 * slot_;
  const int ranks = static_cast<int>(blocks_.extent(0));
  pack_owned(packed_, b, level_.shape);
  if (!from_zero) pack_owned(packed_, x, level_.shape, slot);
  const Buffer send = Kokkos::subview(packed_, Kokkos::make_pair(0, per_rank));
  const Buffer all = Kokkos::subview(gathered_, Kokkos::make_pair(0, per_rank * ranks));
  {
    CommunicationScope scope(level_.timers, Phase::poisson_reduction, reducer_->blocks_host());
    reducer_->allgather(send, all);
  }
  if (from_zero) Kokkos::deep_copy(ExecSpace(), whole_x_, Real(0));
  unpack_gathered(whole_b_, from_zero ? Field() : whole_x_, all, blocks_, slot, whole_.shape.ghost);
  if (!from_zero) cycles_->top_ghosts().fill(whole_x_);
}

}  // namespace eddy::solver
