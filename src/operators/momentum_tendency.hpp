#pragma once
// The explicit momentum tendency -div(u u_i) + nu Laplacian(u_i) of one component at its own face: the kernel that
// stores it (operators/advection.cpp) and the one that applies it within a Runge-Kutta stage
// (operators/velocity_stage.hpp) evaluate the same expression. The velocity stage (operators/velocity_stage_point.hpp)
// evaluates the three components' at once, each edge two of them share computed once (momentum_tendencies).
#include "operators/advection_stencil.hpp"
#include "operators/laplacian.hpp"

namespace eddy::operators {

/// Whether the tendency adds the viscous term: where nu is not 0 (`tested`), or by the caller's choice, for loops that
/// test nu once outside.
enum class ViscousTerm { tested, always, never };

/// Tendency of component `Axis` (0: u, 1: v, 2: w, 3D only) at its face (i, j, k).
template <int Axis, class Flux, ViscousTerm Viscous = ViscousTerm::tested, class F>
KOKKOS_INLINE_FUNCTION Real momentum_tendency(const F& u, const F& v, const F& w, int i, int j, int k,
                                              const InverseSpacing& inv, bool three_d, Real nu) {
  const bool viscous = Viscous == ViscousTerm::always || (Viscous == ViscousTerm::tested && nu != 0);
  Real tendency;
  if constexpr (Axis == 0) {
    tendency = advection_u<Flux>(u, v, w, i, j, k, inv, three_d);
    if (viscous) tendency += nu * laplacian(u, i, j, k, inv, three_d);
  } else if constexpr (Axis == 1) {
    tendency = advection_v<Flux>(u, v, w, i, j, k, inv, three_d);
    if (viscous) tendency += nu * laplacian(v, i, j, k, inv, three_d);
  } else {
    tendency = advection_w<Flux>(u, v, w, i, j, k, inv);
    if (viscous) tendency += nu * laplacian(w, i, j, k, inv, three_d);
  }
  return tendency;
}

/// The tendencies of every component at its face of view point (i, j, k), as momentum_tendency gives each (w's 0 in
/// 2D), the advection's shared edges computed once (advection_of_all). With `LoadsOnce`, each neighbour is loaded once.
template <class Flux, ViscousTerm Viscous = ViscousTerm::tested, bool LoadsOnce = false, class F>
KOKKOS_INLINE_FUNCTION FaceTerms momentum_tendencies(const F& u, const F& v, const F& w, int i, int j, int k,
                                                     const InverseSpacing& inv, bool three_d, Real nu) {
  const bool viscous = Viscous == ViscousTerm::always || (Viscous == ViscousTerm::tested && nu != 0);
  // The same arithmetic either way. With one copy for both dimensionalities, 3D's loads of the advection do not precede
  // the Laplacians' on every path, and the compiler loads some of the 27 neighbours twice. With a copy per
  // dimensionality it loads each once, but must hold them: the tile loops spill at 64 registers a thread and not at 80
  // (load and spill counts in tests/perf/RESULTS.md).
  const auto in = [&](bool three) {
    FaceTerms tendency = advection_of_all<Flux>(u, v, w, i, j, k, inv, three);
    if (viscous) {
      tendency.u += nu * laplacian(u, i, j, k, inv, three);
      tendency.v += nu * laplacian(v, i, j, k, inv, three);
      if (three) tendency.w += nu * laplacian(w, i, j, k, inv, three);
    }
    return tendency;
  };
  if constexpr (LoadsOnce) {
    return three_d ? in(true) : in(false);
  } else {
    return in(three_d);
  }
}

}  // namespace eddy::operators
