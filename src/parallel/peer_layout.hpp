#pragma once
// Where the peer transport (parallel/peer_links.hpp) writes in a neighbour's receive buffer. Each rank's buffer holds
// its remote segments' values, then two flag words per distinct neighbour; ranks receive different amounts where their
// blocks or neighbour counts differ, so each rank exports its own layout and its neighbours address it by that alone.
// Host code only: CPU builds test the same handshake that GPU builds run.
#include "parallel/halo_plan.hpp"

#include <cstddef>
#include <vector>

namespace eddy::parallel {

/// What a rank tells one neighbour about its receive buffer.
struct PeerLayout {
  long long offset[27];  ///< per direction of arrival (receiver's index): the segment's first value index, or -1
  long long flags_at;    ///< bytes from the buffer's start to its first flag word
  int slot;              ///< the neighbour's two flag words: 2 slot (arrived) and 2 slot + 1 (unpacked)
};

/// Where a rank writes in one neighbour's buffer: its segments' first values and its two flags.
struct PeerTargets {
  std::vector<long long> value_offset;    ///< per remote segment of this rank: value index there, or -1 (other peer)
  std::size_t arrived = 0, unpacked = 0;  ///< bytes from the buffer's start to this rank's two flags there
};

/// The first flag of a pair (`arrived`, then `unpacked`).
enum class PeerFlag { arrived = 0, unpacked = 1 };

/// The distinct neighbours of the first `remote_count` segments, in increasing rank.
std::vector<int> distinct_peers(const std::vector<HaloSegment>& segments, int remote_count);
/// Value index of each remote segment in a buffer of `fields` fields per point, in segment order, and last the total.
std::vector<long long> receive_offsets(const std::vector<HaloSegment>& segments, int remote_count, int fields);
/// Bytes from a receive buffer's start to its flags: `points` values, rounded up to whole 256-byte lines.
std::size_t flags_offset(long long points);
/// Bytes of a receive buffer of `points` values with the flags of `peers` neighbours.
std::size_t receive_buffer_bytes(long long points, int peers);
/// Bytes from a buffer's start to the flag `which` of `slot`, for flags starting at `flags_at`.
std::size_t flag_byte(std::size_t flags_at, int slot, PeerFlag which);

/// The layout this rank exports to the neighbour whose flags sit in `slot`.
PeerLayout export_layout(const std::vector<HaloSegment>& segments, int remote_count,
                         const std::vector<long long>& recv_offset, long long recv_points, int slot);
/// Where this rank's segments to `rank` and its flags go in that neighbour's buffer, from the layout it exported;
/// throws where the neighbour expects no message from a direction this rank sends to.
PeerTargets targets_in(const PeerLayout& theirs, const std::vector<HaloSegment>& segments, int remote_count, int rank);

}  // namespace eddy::parallel
