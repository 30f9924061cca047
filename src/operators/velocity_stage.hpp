#pragma once
// The one-kernel velocity stage: u* = u + a R_k + b R_{k-1} + c (u_0 - u) on the faces the momentum equation advances,
// a copy of u everywhere else (or, at the images of a row's ends, the value of the end they mirror), and R_k kept for
// the next stage where it reads it (u_0: the velocity the step started from, read where c is not 0). One portable and
// one tuned loop evaluate it, chosen when the code is compiled:
//   by rows (CPUs): a thread per row of the view, the row's owned points in one vectorized loop;
//   by tiles (GPUs): a team per tile of 32 x 6 points of an x-y plane marching up a column of planes. Each plane of u,
//              v and w, with a one-point rim, is copied once into a ring of five planes in team scratch (asynchronous
//              copies on GPUs that have them), and every neighbour is read from there, so that L2 serves each value
//              once per tile instead of once per stencil that reads it; R_{k-1} and u_0 are loaded a plane ahead.
// Both loops evaluate the same expression at every point (operators/velocity_stage_point.hpp) and give the same bits.
// The tiling was chosen by timing every stage form against the other tilings (measured in tests/perf/RESULTS.md).
#include "config/deck.hpp"
#include "fields/face_vector.hpp"
#include "operators/staggered_grid.hpp"
#include "parallel/row_end_images.hpp"

namespace eddy::operators {

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

/// The velocity stage of `state` by the loop of this build: by tiles on GPUs, by rows on CPUs.
void velocity_stage(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                    config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights);

/// The velocity stage by rows, a thread per row with the row's owned points in one vectorized loop (the portable form).
void velocity_stage_by_rows(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                            config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights);

/// The velocity stage by tiles of planes staged in team scratch (the GPU form; one thread per team elsewhere), each
/// team marching `planes_per_team` planes (0: as many as keep enough teams for the grid).
void velocity_stage_by_tiles(const fields::FlowState& state, const StageTargets& targets, const StaggeredGrid& grid,
                             config::AdvectionScheme scheme, Real viscosity, const StageWeights& weights,
                             int planes_per_team = 0);

}  // namespace eddy::operators
