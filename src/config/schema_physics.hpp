#pragma once
// Keys of the coupled-physics sections: one entry of `scalars` (and its initial/boundary subsections) or `bodies`.
#include <string>
#include <vector>

namespace eddy::config {

/// The keys allowed at `path` when it is inside a `scalars[n]` or `bodies[n]` entry, else nullptr.
const std::vector<std::string>* physics_section_keys(const std::string& path);

}  // namespace eddy::config
