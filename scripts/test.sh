#!/usr/bin/env bash
# Sets up eddy's environment if needed, builds, and runs the whole test suite (1, 2, 3 and 4 MPI ranks included).
#   scripts/test.sh                  CPU build (preset openmp, warnings as errors), all tests
#   scripts/test.sh --preset debug   Debug build with Kokkos bounds checks
#   scripts/test.sh -L unit          pass extra arguments to ctest
# With Kokkos_ROOT set (your own Kokkos, e.g. from Spack), everything runs natively on this machine instead.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=openmp
if [[ "${1:-}" == "--preset" ]]; then
  preset=$2
  shift 2
fi
cd "$here"
if [[ -n "${Kokkos_ROOT:-}" ]]; then
  export EDDY_NATIVE=1
fi
jobs=$(nproc 2>/dev/null || echo 2)
exec "$here/scripts/in-env.sh" bash -c '
  set -euo pipefail
  preset=$1 jobs=$2; shift 2
  cmake --preset "$preset" ${Kokkos_ROOT:+-DKokkos_ROOT="$Kokkos_ROOT"} >/dev/null
  echo "building eddy and its tests (the first time: 15-25 minutes on two cores)" >&2
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs" "$@"
' _ "$preset" "$jobs" "$@"
