#pragma once
// A Kokkos profiling region for the lifetime of a scope, so Kokkos Tools and Nsight Systems show eddy's phases.
#include <Kokkos_Core.hpp>

#include <string>

namespace eddy {

/// Pushes a named Kokkos profiling region on construction and pops it on destruction.
class ProfileRegion {
 public:
  explicit ProfileRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ProfileRegion() { Kokkos::Profiling::popRegion(); }
  ProfileRegion(const ProfileRegion&) = delete;
  ProfileRegion& operator=(const ProfileRegion&) = delete;
};

}  // namespace eddy
