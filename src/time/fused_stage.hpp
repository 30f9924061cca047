#pragma once
// The one-kernel velocity stage: u* = u + a R_k + b R_{k-1} + c (u_0 - u) on the faces the momentum equation advances,
// a copy of u everywhere else (or, at the images of a row's ends, the value of the end they mirror), and R_k kept for
// the next stage where it reads it (u_0: the velocity the step started from, read where c is not 0). Two loops evaluate
// it:
//   by points: one thread per view point, every neighbour read from memory through L1 and L2;
//   by tiles:  a team per tile of 32 x 8 points of an x-y plane marching up a column of planes. Each plane of u, v and
//              w, with a one-point rim, is copied once into a ring of planes in team scratch (asynchronous copies on
//              GPUs that have them), and every neighbour is read from there; R_{k-1} and u_0 are loaded a plane
//              ahead.
// At 512^3 on an H200 the first stage read 21.6 GB from L2 by points and 6.0 GB by tiles (32 x 4, five planes
// ahead), for 4.1 and 3.7 GB from DRAM. The tiles take 2-17% less time than the points on an H200 and 0-6% less on
// an H100; deeper rings of smaller tiles were faster for the first stage on the H200 only (tests/perf/RESULTS.md). A
// ring of five planes runs most stage forms faster than four on an H200 and slower on an H100, and the same ring
// staged by aligned pairs, or tiles of 32 x 6, run some forms faster and others slower, differently on each GPU, so a
// run times the four on each form's first calls and keeps the fastest (time/stage_tiling_choice.hpp).
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/row_end_images.hpp"

#include <string>

namespace eddy::time {

/// The weights of a stage: u* = u + current R_k + previous R_{k-1} + start (u_0 - u), the time step folded into the
/// first two.
struct StageWeights {
  Real current = 1, previous = 0;
  bool next_stage_reads_tendency = false;  ///< the next stage has a previous weight: keep R_k
  Real start = 0;                          ///< the weight of the step's starting velocity u_0
};

/// Where the stage writes, and what it carries from earlier stages: u* into `next`; R_{k-1} is read from and R_k kept
/// in `tendency` (left empty where no stage reads it); u_0 is read from `start` where the start weight is not 0. Where
/// `row_ends` is not empty, the ends of each row of u* are also written to their images, the x ghosts across the
/// periodic wrap (HaloExchange::exchange_after_row_ends fills the others).
struct StageTargets {
  fields::FaceVector next, tendency, start;
  parallel::RowEndImages row_ends = {};
};

/// A tile of the tile loop: `x` by `y` points of a plane per team, `planes` planes per team (0: chosen from the grid),
/// a ring of `ring` planes of each field in team scratch (three read, the others in flight).
struct StageTiling {
  int x = 32, y = 8, planes = 0, ring = 4;
  bool pairs = false;  ///< stage rows by aligned pairs of values where the fields allow it (32 x 8 tiles)
  bool rows = false;   ///< with pairs: stage each row by one bulk copy (NVIDIA sm_90 and later)
};

/// A tiling's name in benchmark tables and logs, such as "32x8 ring 5 by pairs".
std::string describe(const StageTiling& tiling);

/// The tilings `fused_stage_by_tiles` accepts (for `eddy bench flow`); the first is its default, and a run chooses
/// among the first `stage_tiling_candidates` by timing (time/stage_tiling_choice.hpp).
/// Rows staged by bulk copies ran three stage forms 5-6% slower than the best candidate on an H100, and Wray's third
/// stage and the SSP RK3's blending stage 2-3% faster in `eddy bench flow` (Wray's third 4% slower inside a step;
/// tests/perf/RESULTS.md), so only the benchmark times them.
inline constexpr StageTiling stage_tilings[] = {{32, 8, 0, 4},
                                                {32, 8, 0, 5},
                                                {32, 8, 0, 5, true},
                                                {32, 6, 0, 5},
                                                {32, 4, 0, 8},
                                                {32, 4, 0, 7},
                                                {32, 4, 0, 6},
                                                {32, 8, 0, 4, true},
                                                {32, 8, 0, 4, true, true},
                                                {32, 8, 0, 5, true, true}};
inline constexpr int stage_tiling_candidates = 4;

/// The fused stage of `state` by one thread per view point.
void fused_stage_by_points(const fields::FlowState& state, const StageTargets& targets,
                           const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                           const StageWeights& weights);

/// The fused stage of `state` by rows, a thread per row with the row's owned points in one vectorized loop (the CPU
/// form).
void fused_stage_by_rows(const fields::FlowState& state, const StageTargets& targets,
                         const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                         const StageWeights& weights);

/// The fused stage of `state` by tiles of planes staged in team scratch; `tiling` must be one of `stage_tilings`.
void fused_stage_by_tiles(const fields::FlowState& state, const StageTargets& targets,
                          const operators::StaggeredGrid& grid, config::AdvectionScheme scheme, Real viscosity,
                          const StageWeights& weights, StageTiling tiling = {});

class StageTilingChoice;

/// The fused stage by the loop measured fastest on this backend (tiles on GPUs, points on CPUs); the tiles' tiling
/// from `choice` where given (time/stage_tiling_choice.hpp), else the default.
void fused_stage(const fields::FlowState& state, const StageTargets& targets, const operators::StaggeredGrid& grid,
                 config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights,
                 StageTilingChoice* choice = nullptr);

}  // namespace eddy::time
