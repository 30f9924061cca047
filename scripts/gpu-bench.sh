#!/usr/bin/env bash
# Builds eddy for NVIDIA GPUs against an installed Kokkos (CUDA backend), runs the test suite on the GPUs, then the
# benchmarks of tests/perf, prints each benchmark's lines that matter, and last the short table of the performance
# targets (scripts/bench_table.py: result, floor or peer, target, met or not). On 2 GPUs and more it also runs the
# reductions, halo exchanges and steps on 2 ranks, and on 4 (8) GPUs or more the reductions, the halo exchange by each
# transport and the steps on 4 (8), with the strong scaling of a grid too large for one GPU from 2 GPUs up.
#   Kokkos_ROOT=/path/to/kokkos-install scripts/gpu-bench.sh
# Environment: EDDY_BENCH_N (size, default 512),
# EDDY_SKIP_TESTS=1 (benchmarks only), EDDY_SWEEP_N (cells per axis of the scaling.py sweeps on 2+ GPUs, default 256),
# EDDY_BENCH_ONLY ("step1 step2weak ...": run only the benchmarks of these names, as the table names them),
# EDDY_WHOLE_RUN_N (cells per axis of the Taylor-Green deck's whole run to t = 20, default 256; 0 skips it),
# EDDY_PAIR_PLANES_SWEEP ("4 16": also run bench stencil, flow and step with each --pair_planes, the longest column
# of the pair loops, as tuning.pair_planes sets it in a deck; the default runs come first), EDDY_NCCL_TESTS (the build directory of nccl-tests: on 2 GPUs and
# more its all_reduce_perf times the same 8-byte allreduce beside eddy's, launched back to back and from CUDA graphs).
# EDDY_LARGE_N (cells per axis of the strong-scaling grid run from 2 GPUs up, default twice EDDY_BENCH_N).
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
large=${EDDY_LARGE_N:-$((2 * size))}

cmake --preset cuda-hopper -DKokkos_ROOT="$Kokkos_ROOT" -DEDDY_TEST_MAX_RANKS="$gpus" >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
targets=()
[[ "${EDDY_SKIP_TESTS:-0}" == 1 ]] && targets=(--target eddy)
cmake --build --preset cuda-hopper -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -40; exit 1; }

eddy=build/cuda/src/eddy
mpirun_gpus() { mpirun --allow-run-as-root -np "$1" -x NCCL_NVLS_ENABLE -x PATH -x LD_LIBRARY_PATH "${@:2}"; }
run() {
  local name=$1; shift
  [[ -z "${EDDY_BENCH_ONLY:-}" || " $EDDY_BENCH_ONLY " == *" $name "* ]] || return 0
  echo "== $name: $*" >>"$out/bench.log"; "$@" 2>&1 | tee "$out/$name.log" >>"$out/bench.log"
}

"$eddy" --version >"$out/version.log" 2>&1
run stencil "$eddy" bench stencil --n "$size"
run flow "$eddy" bench flow --n "$size"
swept=()
for planes in ${EDDY_PAIR_PLANES_SWEEP:-}; do
  for bench in stencil flow step; do
    name="${bench/step/step1}_planes_$planes"
    run "$name" "$eddy" bench "$bench" --n "$size" --pair_planes "$planes"
    swept+=("$name")
  done
done
run torch python3 tests/perf/torch_stencil.py --n "$size"
run poisson "$eddy" bench poisson --n "$size"
run poisson_post "$eddy" bench poisson --n "$size" --pre_smooth 0 --post_smooth 2
run poisson_v22 "$eddy" bench poisson --n "$size" --pre_smooth 2 --post_smooth 2 --relaxation 1.25
run poisson_gs "$eddy" bench poisson --n "$size" --pre_smooth 2 --post_smooth 2 --relaxation 1
run poisson_chebyshev "$eddy" bench poisson --n "$size" --smoother chebyshev --pre_smooth 2 --post_smooth 2
run poisson_jacobi "$eddy" bench poisson --n "$size" --smoother jacobi --pre_smooth 2 --post_smooth 2
run reduce1 "$eddy" bench reduce
run halo1 "$eddy" bench halo
if [[ $gpus -ge 2 ]]; then
  run reduce2 mpirun_gpus 2 "$eddy" bench reduce
  if [[ -n "${EDDY_NCCL_TESTS:-}" ]]; then
    peer=("$EDDY_NCCL_TESTS/all_reduce_perf" -b 8 -e 8 -g 1 -d double -c 0)
    run nccl_tests2 mpirun_gpus 2 "${peer[@]}" -n 1000 -w 100
    run nccl_tests2_graph mpirun_gpus 2 "${peer[@]}" -n 100 -w 10 -G 10
  fi
  run halo2 mpirun_gpus 2 "$eddy" bench halo
  run halo2face mpirun_gpus 2 "$eddy" bench halo --n 512 --fields 1 --open
fi
for g in 4 8; do
  [[ $gpus -ge $g ]] || continue
  run reduce$g mpirun_gpus $g "$eddy" bench reduce
  run halo$g mpirun_gpus $g "$eddy" bench halo
done
run step1 "$eddy" bench step --n "$size" --kernel-times
run step1_tight "$eddy" bench step --n "$size" --rtol 1e-6
run step1_post "$eddy" bench step --n "$size" --pre-smooth 0 --post-smooth 2
run step1_v22 "$eddy" bench step --n "$size" --pre-smooth 2 --post-smooth 2 --relaxation 1
# Small grids: where kernel launches, not bandwidth, set the pace (the V-cycle replays as a CUDA graph on one GPU).
run poisson_small "$eddy" bench poisson --n 128
run step1_small "$eddy" bench step --n 128 --kernel-times
run step1_tiny "$eddy" bench step --n 64
run step1_ssp "$eddy" bench step --n "$size" --scheme ssp_rk3
run step1_ssp_small "$eddy" bench step --n 128 --scheme ssp_rk3
if [[ $gpus -ge 2 ]]; then
  run step2weak mpirun_gpus 2 "$eddy" bench step --n "$size" --weak
  run step2weak_no_overlap mpirun_gpus 2 "$eddy" bench step --n "$size" --weak --no-overlap
  run step2weak_no_gather mpirun_gpus 2 "$eddy" bench step --n "$size" --weak --no-gather
  run step2strong mpirun_gpus 2 "$eddy" bench step --n "$size"
  run step2strong_no_gather mpirun_gpus 2 "$eddy" bench step --n "$size" --no-gather
  run step2weak_kernels mpirun_gpus 2 "$eddy" bench step --n "$size" --weak --kernel-times
  run step2strong_large mpirun_gpus 2 "$eddy" bench step --n "$large"
fi
for g in 4 8; do
  [[ $gpus -ge $g ]] || continue
  run step${g}weak mpirun_gpus $g "$eddy" bench step --n "$size" --weak
  run step${g}strong mpirun_gpus $g "$eddy" bench step --n "$size"
  run step${g}strong_large mpirun_gpus $g "$eddy" bench step --n "$large"
done

# A whole run of the Taylor-Green deck to t = 20 (EDDY_WHOLE_RUN_N cells per axis, default 256; 0 skips it): its
# steps include the turbulent flow, whose solves take more V-cycles than the early steps `bench step` times.
whole=${EDDY_WHOLE_RUN_N:-256}
if [[ $whole -gt 0 ]]; then
  run tg_whole "$eddy" run inputs/taylor_green3d_re1600.yaml --set "domain.cells=[$whole,$whole,$whole]" \
    --set output.interval_time=0 --set output.checkpoint_interval_steps=0 --set output.overwrite=true \
    --set output.directory="$out/tg_whole_run"
  run tg_whole_dissipation python3 postprocess/dissipation.py "$out/tg_whole_run" --volume 248.05021344239853
fi

if [[ $gpus -ge 2 ]]; then
  # The user-facing sweep driver on the same machine: Taylor-Green 3D, 20 steps per run, CSV per sweep.
  launcher="mpirun --allow-run-as-root -np {n} -x NCCL_NVLS_ENABLE -x PATH -x LD_LIBRARY_PATH"
  sweep=${EDDY_SWEEP_N:-256}
  ranks=(1 2)
  [[ $gpus -ge 4 ]] && ranks+=(4)
  [[ $gpus -ge 8 ]] && ranks+=(8)
  run scaling_weak python3 scripts/scaling.py weak --deck inputs/taylor_green3d_re1600.yaml --ranks "${ranks[@]}" \
    --cells-per-rank "$sweep" "$sweep" "$sweep" --eddy "$eddy" --launcher "$launcher" --out "$out/scaling-weak"
  run scaling_strong python3 scripts/scaling.py strong --deck inputs/taylor_green3d_re1600.yaml --ranks "${ranks[@]}" \
    --cells "$sweep" "$sweep" "$sweep" --eddy "$eddy" --launcher "$launcher" --out "$out/scaling-strong"
fi

tests_rc=0
if [[ "${EDDY_SKIP_TESTS:-0}" != 1 ]]; then
  ctest --preset cuda-hopper -LE regression -j 4 --timeout 300 >"$out/ctest.log" 2>&1
  tests_rc=$?
fi
[[ -s "$out/ctest.log" ]] && grep -E "tests passed|tests failed|Failed|Timeout|\*\*\*" "$out/ctest.log" | tail -20

echo
echo "== eddy on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus, $(date -u +%F)"
for f in stencil flow torch poisson poisson_post poisson_v22 poisson_gs poisson_chebyshev poisson_jacobi reduce1 \
  reduce2 nccl_tests2 nccl_tests2_graph reduce4 reduce8 halo1 halo2 halo2face halo4 halo8 step1 step1_tight \
  step1_post step1_v22 step2weak step2weak_no_overlap step2weak_no_gather step2strong step2strong_no_gather \
  step2weak_kernels step2strong_large step4weak step4strong step4strong_large step8weak step8strong \
  step8strong_large poisson_small step1_small step1_tiny step1_ssp step1_ssp_small tg_whole tg_whole_dissipation \
  "${swept[@]}"; do
  [[ -s "$out/$f.log" ]] || continue
  echo "-- $f"
  if [[ $f == tg_whole ]]; then
    grep -E "run summary|pressure solve" "$out/$f.log"
  elif [[ $f == step* ]]; then
    grep -E "pair loops|time per step|ns per cell per step|V-cycles per step|bytes per cell|largest grid|share (advance|poisson|projection|halo)|exposed exchanges|slowest rank|: 32x" "$out/$f.log"
    sed -n '/^kernels of rank 0/,$p' "$out/$f.log"
  else
    grep -vE "^\s*$" "$out/$f.log" | tail -40
  fi
done
for f in "$out"/scaling-weak/*.csv "$out"/scaling-strong/*.csv; do
  [[ -s "$f" ]] && { echo "-- $f"; cat "$f"; }
done
echo
python3 scripts/bench_table.py "$out" --device "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus"
exit $tests_rc
