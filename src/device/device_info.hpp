#pragma once
// What the device can tell about itself: its memory, and the copy engine's speed to a second GPU of the node. Every
// answer is negative where the backend cannot tell, so callers print nothing rather than a made-up number.

namespace eddy::device {

/// Bytes of device memory in use on this process's GPU, or -1 where the backend cannot tell.
double memory_in_use();
/// Bytes of device memory on this process's GPU, or -1 where the backend cannot tell.
double memory_total();
/// Seconds of a copy-engine copy of `bytes` from this process's GPU to the next visible one (the median of `reps`), or
/// -1 where there is no second GPU or no peer access.
double peer_copy_seconds(long long bytes, int reps);

}  // namespace eddy::device
