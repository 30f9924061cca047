#include "parallel/peer_layout.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

namespace eddy::parallel {

std::vector<int> distinct_peers(const std::vector<HaloSegment>& segments, int remote_count) {
  std::set<int> peers;
  for (int s = 0; s < remote_count; ++s) peers.insert(segments[s].peer);
  return {peers.begin(), peers.end()};
}

std::vector<long long> receive_offsets(const std::vector<HaloSegment>& segments, int remote_count, int fields) {
  std::vector<long long> offsets(remote_count + 1, 0);
  for (int s = 0; s < remote_count; ++s) offsets[s + 1] = offsets[s] + segments[s].points() * fields;
  return offsets;
}

std::size_t flags_offset(long long points) {
  const std::size_t bytes = std::max<long long>(points, 1) * sizeof(Real);
  return (bytes + 255) / 256 * 256;
}

std::size_t receive_buffer_bytes(long long points, int peers) {
  return flags_offset(points) + 2 * static_cast<std::size_t>(std::max(peers, 1)) * sizeof(std::uint32_t);
}

std::size_t flag_byte(std::size_t flags_at, int slot, PeerFlag which) {
  return flags_at + (2 * static_cast<std::size_t>(slot) + static_cast<std::size_t>(which)) * sizeof(std::uint32_t);
}

PeerLayout export_layout(const std::vector<HaloSegment>& segments, int remote_count,
                         const std::vector<long long>& recv_offset, long long recv_points, int slot) {
  PeerLayout layout{};
  for (long long& offset : layout.offset) offset = -1;
  for (int s = 0; s < remote_count; ++s) layout.offset[direction_index(segments[s].direction)] = recv_offset[s];
  layout.flags_at = static_cast<long long>(flags_offset(recv_points));
  layout.slot = slot;
  return layout;
}

PeerTargets targets_in(const PeerLayout& theirs, const std::vector<HaloSegment>& segments, int remote_count, int rank) {
  PeerTargets targets;
  targets.value_offset.assign(remote_count, -1);
  for (int s = 0; s < remote_count; ++s) {
    if (segments[s].peer != rank) continue;
    // A segment sent towards d arrives in the neighbour's ghosts on its side -d.
    const long long offset = theirs.offset[26 - direction_index(segments[s].direction)];
    require(offset >= 0, "peer halo exchange: rank " + std::to_string(rank) +
                             " expects no message from this rank's direction " +
                             std::to_string(direction_index(segments[s].direction)));
    targets.value_offset[s] = offset;
  }
  const auto flags_at = static_cast<std::size_t>(theirs.flags_at);
  targets.arrived = flag_byte(flags_at, theirs.slot, PeerFlag::arrived);
  targets.unpacked = flag_byte(flags_at, theirs.slot, PeerFlag::unpacked);
  return targets;
}

}  // namespace eddy::parallel
