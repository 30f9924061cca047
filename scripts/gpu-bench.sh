#!/usr/bin/env bash
# Builds eddy for NVIDIA GPUs against an installed Kokkos (CUDA backend), runs the test suite on the GPUs, then the
# benchmarks of tests/perf, and prints one table last.
#   Kokkos_ROOT=/path/to/kokkos-install scripts/gpu-bench.sh [--quick]
# Writes logs to $EDDY_BENCH_OUT (default build/cuda/bench).
set -uo pipefail
: "${Kokkos_ROOT:?set Kokkos_ROOT to a Kokkos install with the CUDA backend}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
[[ $gpus -ge 1 ]] || { echo "no GPU visible" >&2; exit 1; }
out=${EDDY_BENCH_OUT:-build/cuda/bench}
mkdir -p "$out"
size=${EDDY_BENCH_N:-512}

cmake --preset cuda-hopper -DKokkos_ROOT="$Kokkos_ROOT" -DEDDY_TEST_MAX_RANKS="$gpus" >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
cmake --build --preset cuda-hopper -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -40; exit 1; }

ctest --preset cuda-hopper -LE regression >"$out/ctest.log" 2>&1
tests_rc=$?
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest.log" | tail -15

eddy=build/cuda/src/eddy
mpirun_gpus() { mpirun --allow-run-as-root -np "$1" -x NCCL_NVLS_ENABLE -x PATH -x LD_LIBRARY_PATH "${@:2}"; }
run() { local name=$1; shift; echo "== $name: $*" >>"$out/bench.log"; "$@" 2>&1 | tee "$out/$name.log" >>"$out/bench.log"; }

"$eddy" --version >"$out/version.log" 2>&1
run stencil "$eddy" bench stencil --n "$size"
run poisson "$eddy" bench poisson --n "$size"
run reduce1 "$eddy" bench reduce
run halo1 "$eddy" bench halo
if [[ $gpus -ge 2 ]]; then
  run reduce2 mpirun_gpus 2 "$eddy" bench reduce
  run halo2 mpirun_gpus 2 "$eddy" bench halo
fi
run step1 "$eddy" bench step --n "$size"
if [[ $gpus -ge 2 ]]; then
  run step2weak mpirun_gpus 2 "$eddy" bench step --n "$size" --weak
  run step2strong mpirun_gpus 2 "$eddy" bench step --n "$size"
fi

echo
echo "== eddy on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus, $(date -u +%F)"
grep -h "^|" "$out"/stencil.log "$out"/poisson.log "$out"/reduce*.log "$out"/halo*.log "$out"/step*.log 2>/dev/null
exit $tests_rc
