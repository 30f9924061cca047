#pragma once
// Kokkos profiling regions, so Kokkos Tools and Nsight Systems show eddy's phases. Without a tool loaded a region
// costs a branch: its name is only turned into a string for a tool.
#include <Kokkos_Core.hpp>

#include <string>
#include <string_view>

namespace eddy {

/// Pushes a region named `name` if a profiling tool listens; returns whether it did (pass that to pop_region).
inline bool push_region(std::string_view name) {
  if (!Kokkos::Profiling::profileLibraryLoaded()) return false;
  Kokkos::Profiling::pushRegion(std::string(name));
  return true;
}

/// Pops the region that push_region pushed (nothing if it pushed none).
inline void pop_region(bool pushed) {
  if (pushed) Kokkos::Profiling::popRegion();
}

/// A profiling region for the lifetime of a scope.
class ProfileRegion {
 public:
  explicit ProfileRegion(std::string_view name) : pushed_(push_region(name)) {}
  ~ProfileRegion() { pop_region(pushed_); }
  ProfileRegion(const ProfileRegion&) = delete;
  ProfileRegion& operator=(const ProfileRegion&) = delete;

 private:
  bool pushed_;
};

}  // namespace eddy
