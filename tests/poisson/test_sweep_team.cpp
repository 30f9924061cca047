// What the fused sweeps' team kernels share (solver/sweep_team.hpp): the teams' tiles cover a block's cells once each,
// a ring of planes gives consecutive planes distinct slots, and the occupancy a launch asks for is that of its resident
// teams.
#include "solver/sweep_team.hpp"

#include <gtest/gtest.h>

#include <vector>

using eddy::solver::resident_teams_occupancy;
using eddy::solver::ring_slot;
using eddy::solver::team_tile;

namespace {

template <int team_threads, int min_teams>
struct FakeTile {
  static constexpr int threads = team_threads;
  using Policy = eddy::solver::SweepTeamPolicy<team_threads, min_teams>;
};

TEST(SweepTeam, TilesCoverEveryCellOnce) {
  struct Case {
    int nx, ny, nz, tx, ty, chunk;
  };
  for (const Case c : {Case{37, 21, 19, 64, 8, 4}, Case{128, 16, 32, 64, 8, 16}, Case{9, 30, 5, 4, 7, 8}}) {
    const int tiles_x = (c.nx + c.tx - 1) / c.tx, per_chunk = tiles_x * ((c.ny + c.ty - 1) / c.ty);
    const int teams = per_chunk * ((c.nz + c.chunk - 1) / c.chunk);
    std::vector<int> seen(static_cast<std::size_t>(c.nx) * c.ny * c.nz, 0);
    for (int team = 0; team < teams; ++team) {
      const auto [i0, j0, k0, k1] = team_tile(team, c.tx, c.ty, tiles_x, per_chunk, c.chunk, c.nz);
      ASSERT_LE(k1, c.nz);
      for (int k = k0; k < k1; ++k) {
        for (int j = j0; j < j0 + c.ty && j < c.ny; ++j) {
          for (int i = i0; i < i0 + c.tx && i < c.nx; ++i) ++seen[i + static_cast<std::size_t>(c.nx) * (j + c.ny * k)];
        }
      }
    }
    for (std::size_t n = 0; n < seen.size(); ++n)
      ASSERT_EQ(seen[n], 1) << "cell " << n << " of " << c.nx << "x" << c.ny;
  }
}

TEST(SweepTeam, ConsecutivePlanesTakeDistinctRingSlots) {
  for (const int ring : {4, 8}) {
    for (int first = -ring; first < 3 * ring; ++first) {
      std::vector<int> used(ring, 0);
      for (int plane = first; plane < first + ring; ++plane) {
        const int slot = ring_slot(plane, ring);
        ASSERT_GE(slot, 0);
        ASSERT_LT(slot, ring);
        ++used[slot];
      }
      for (int slot = 0; slot < ring; ++slot) EXPECT_EQ(used[slot], 1) << "ring " << ring << " from " << first;
    }
  }
}

TEST(SweepTeam, LaunchAsksForTheOccupancyOfItsResidentTeams) {
  // Four teams of 352 threads fill 1408 of a multiprocessor's 2048 threads.
  EXPECT_EQ((resident_teams_occupancy<FakeTile<352, 4>>().value()), 68);
  EXPECT_EQ((resident_teams_occupancy<FakeTile<256, 4>>().value()), 50);
  EXPECT_EQ((resident_teams_occupancy<FakeTile<256, 8>>().value()), 100);
  EXPECT_EQ((resident_teams_occupancy<FakeTile<1024, 4>>().value()), 100);  // more than fit: all of it
  EXPECT_EQ((resident_teams_occupancy<FakeTile<1, 4>>().value()), 1);       // a CPU team: the least there is
}

}  // namespace
