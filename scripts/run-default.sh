#!/usr/bin/env bash
# Sets up eddy's environment if needed, builds eddy, and runs the embedded default case (2D lid-driven cavity,
# Re = 100) on 2 MPI ranks into a new folder under runs/. Extra arguments go to `eddy run` (e.g. --set ...).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
[[ -n "${Kokkos_ROOT:-}" ]] && export EDDY_NATIVE=1
run_dir=runs/default-$(date +%Y%m%d-%H%M%S)
exec "$here/scripts/in-env.sh" bash -c '
  set -euo pipefail
  run_dir=$1; shift
  cmake --preset openmp ${Kokkos_ROOT:+-DKokkos_ROOT="$Kokkos_ROOT"} >/dev/null
  echo "building eddy (the first time: 5-10 minutes on two cores)" >&2
  cmake --build --preset openmp -j "$(nproc)" --target eddy
  mpirun -np 2 build/openmp/src/eddy run --set output.directory="$run_dir" "$@"
  echo "Output in $run_dir (open $run_dir/fields.xmf in ParaView; scripts/in-env.sh python3 postprocess/report.py $run_dir)"
' _ "$run_dir" "$@"
