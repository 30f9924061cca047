#!/usr/bin/env python3
"""Runs eddy's benchmarks on a tiny grid under the log names scripts/gpu-bench.sh gives them, then
scripts/bench_table.py over those logs, and checks the table against the logs: every row read, the fractions and
times as the benchmarks printed them, the scaling efficiencies from the step times, a missing log reported as not
run, and a benchmark line renamed caught by --strict. With --max-ranks 4 it also runs the steps, the reduction and the
halo exchange on four ranks, and a larger grid's strong scaling from two ranks to four, whose rows the table adds only
where their logs are present.
Usage: check_bench_table.py --eddy EDDY --mpiexec "mpirun -np" --work DIR [--max-ranks 4]"""
import argparse
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TABLE = ROOT / "scripts" / "bench_table.py"
ROWS = ["full 3D step", "small grid step", "V-cycle / solve to 1e-10", "residual / Laplacian apply",
        "residual vs torch Jacobi sweep", "Laplacian vs torch", "red-black sweep vs torch", "restriction / prolongation",
        "fused red-black sweep",
        "divergence / correction / diagnostics", "velocity stages 1 / 2 / 3", "memory", "weak scaling",
        "strong scaling", "allreduce of one value, 2 ranks"]
FOUR_RANK_ROWS = ["weak scaling, 4 GPUs", "strong scaling, 4 GPUs", "strong scaling, large grid, 4 GPUs",
                  "allreduce of one value, 4 ranks", "halo exchange by transport, 4 ranks"]


def run_benchmarks(eddy, mpiexec, logs, four_ranks):
    """The benchmarks gpu-bench.sh runs for the table, at 16^3 (8^3 for the small step), on as many ranks as it runs
    them (the four-rank ones only with `four_ranks`)."""
    two = shlex.split(mpiexec) + ["2"]
    four = shlex.split(mpiexec) + ["4"]
    runs = {
        "stencil": [eddy, "bench", "stencil", "--n", "16", "--reps", "2"],
        "flow": [eddy, "bench", "flow", "--n", "16", "--reps", "2"],
        "poisson": [eddy, "bench", "poisson", "--n", "16"],
        "step1": [eddy, "bench", "step", "--n", "16"],
        "step1_small": [eddy, "bench", "step", "--n", "8"],
        "step2weak": two + [eddy, "bench", "step", "--n", "16", "--weak"],
        "step2strong": two + [eddy, "bench", "step", "--n", "16"],
        "reduce2": two + [eddy, "bench", "reduce"],
    }
    if four_ranks:
        runs["step4weak"] = four + [eddy, "bench", "step", "--n", "16", "--weak"]
        runs["step4strong"] = four + [eddy, "bench", "step", "--n", "16"]
        runs["reduce4"] = four + [eddy, "bench", "reduce"]
        runs["halo4"] = four + [eddy, "bench", "halo", "--n", "8", "--reps", "5"]
        runs["step2strong_large"] = two + [eddy, "bench", "step", "--n", "32"]
        runs["step4strong_large"] = four + [eddy, "bench", "step", "--n", "32"]
    for name, command in runs.items():
        result = subprocess.run(command, capture_output=True, text=True, timeout=240)
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
        (logs / f"{name}.log").write_text(result.stdout)
    (logs / "torch.log").write_text("\n".join(torch_stencil_lines(16)) + "\n")


def torch_stencil_lines(n):
    """The lines tests/perf/torch_stencil.py prints for n^3 cells, with made-up times (torch may be absent here)."""
    sys.path.insert(0, str(ROOT / "tests" / "perf"))
    import torch_stencil
    return torch_stencil.report_lines("test", n, 0.5, 0.25, 0.75, 0.6, 0.7)


def nccl_tests_lines(out_of_place, in_place):
    """What nccl-tests' all_reduce_perf prints for one double summed across ranks, with the given times in us."""
    return ("#" + " " * 62 + "out-of-place" + " " * 23 + "in-place\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong\n"
            f"           8             1    double     sum      -1  {out_of_place:7.2f}    0.00    0.00    N/A  "
            f"{in_place:7.2f}    0.00    0.00    N/A\n"
            "# Avg bus bandwidth    : 0.00\n")


def table(logs, *extra):
    result = subprocess.run([sys.executable, str(TABLE), str(logs), *extra], capture_output=True, text=True,
                            timeout=60)
    rows = {}
    for line in result.stdout.splitlines():
        for name in ROWS + FOUR_RANK_ROWS:
            if line.startswith(name + "  "):
                rows[name] = line
    return result, rows


def step_ms(log):
    return float(re.search(r"time per step \[ms\]\s+([\d.]+)", log.read_text()).group(1))


def equal_cycles_check(logs, log, ranks_per_step, row):
    """Where a scaling run's V-cycles differ from the one-rank run's, its row must give the efficiency with the solver's
    time scaled to the one-rank cycles; elsewhere it must not. Returns a failure message or None."""
    def value(path, name):
        return float(re.search(re.escape(name) + r"\s+([\d.]+)", path.read_text()).group(1))

    cycles = "V-cycles per step (3 stages)"
    one_path, many_path = logs / "step1.log", logs / f"{log}.log"
    cycles_one, cycles_many = value(one_path, cycles), value(many_path, cycles)
    many = step_ms(many_path)
    if cycles_one == cycles_many:
        return None if "equal V-cycles" not in row else f"{log}: equal V-cycles given for equal cycles: {row}"
    solver = many * sum(value(many_path, f"share {s} ") for s in ("poisson", "poisson_halo", "poisson_reduction")) / 100
    equal = 100 * step_ms(one_path) / (ranks_per_step * (many - solver + solver * cycles_one / cycles_many))
    expected = f"{equal:.1f}% at equal V-cycles ({cycles_many:.2f} against {cycles_one:.2f})"
    return None if expected in row else f"{log}: expected '{expected}' in: {row}"


def kernel_line(log, name):
    for line in log.read_text().splitlines():
        if line.startswith(name + " "):
            return line
    raise AssertionError(f"{log} has no row {name}")


def kernel_fraction(log, name):
    return kernel_line(log, name).split()[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--eddy", required=True)
    parser.add_argument("--mpiexec", required=True, help="the launcher before the rank count, e.g. 'mpirun -np'")
    parser.add_argument("--work", required=True)
    parser.add_argument("--max-ranks", type=int, default=2, help="the most ranks a benchmark may run on (2 or 4)")
    args = parser.parse_args()
    four_ranks = args.max_ranks >= 4
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    logs = work / "bench"
    logs.mkdir(parents=True)
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print("FAIL:", message, flush=True)

    run_benchmarks(args.eddy, args.mpiexec, logs, four_ranks)
    reduced = (logs / "reduce2.log").read_text()
    if ", nccl, back to back" in reduced:  # a GPU build: NCCL's allreduce also replays from CUDA graphs
        check(", nccl, in a CUDA graph" in reduced, f"NCCL's allreduce not timed in a CUDA graph:\n{reduced}")
    result, rows = table(logs, "--strict")
    print(result.stdout, result.stderr)
    check(result.returncode == 0, f"the table of complete logs exited {result.returncode}: {result.stderr}")
    check(sorted(rows) == sorted(ROWS + (FOUR_RANK_ROWS if four_ranks else [])), f"rows read {sorted(rows)}")
    check(not any("unreadable" in line or "not run" in line for line in rows.values()), "a row unread")

    one, weak, strong = (step_ms(logs / f"{n}.log") for n in ("step1", "step2weak", "step2strong"))
    check(f"{100 * one / weak:.1f}% on 2" in rows.get("weak scaling", ""), f"weak scaling: {one} / {weak} ms")
    check(f"{100 * one / (2 * strong):.1f}% on 2" in rows.get("strong scaling", ""),
          f"strong scaling: {one} / (2 x {strong}) ms")
    for log, per_rank, name in (("step2weak", 1, "weak scaling"), ("step2strong", 2, "strong scaling")):
        failure = equal_cycles_check(logs, log, per_rank, rows.get(name, ""))
        check(failure is None, failure)
    if four_ranks:
        weak4, strong4 = step_ms(logs / "step4weak.log"), step_ms(logs / "step4strong.log")
        check(f"{100 * one / weak4:.1f}% on 4" in rows.get("weak scaling, 4 GPUs", ""),
              f"weak scaling on 4: {one} / {weak4} ms")
        check(f"{100 * one / (4 * strong4):.1f}% on 4" in rows.get("strong scaling, 4 GPUs", ""),
              f"strong scaling on 4: {one} / (4 x {strong4}) ms")
        check(rows.get("allreduce of one value, 4 ranks", "").rstrip().endswith("-"),
              f"no verdict for 4 ranks: {rows.get('allreduce of one value, 4 ranks')}")
        check(">= 90%" in rows.get("weak scaling, 4 GPUs", "") and ">= 75%" in rows.get("strong scaling, 4 GPUs", ""),
              f"the 4-GPU targets: {rows.get('weak scaling, 4 GPUs')} / {rows.get('strong scaling, 4 GPUs')}")
        scaling_rows = ("weak scaling, 4 GPUs", "strong scaling, 4 GPUs")
        check(all(rows.get(name, "").rstrip().endswith("-") for name in scaling_rows), "4-GPU scaling judged at 16^3")
        two_large, four_large = step_ms(logs / "step2strong_large.log"), step_ms(logs / "step4strong_large.log")
        check(f"{100 * 2 * two_large / (4 * four_large):.1f}% on 4 (32^3)" in
              rows.get("strong scaling, large grid, 4 GPUs", ""),
              f"the large grid's strong scaling from 2 ranks ({two_large} ms) to 4 ({four_large} ms): "
              f"{rows.get('strong scaling, large grid, 4 GPUs')}")
        exchange = re.search(r"exchange, mpi\s+([\d.]+)", (logs / "halo4.log").read_text()).group(1)
        check(f"mpi {float(exchange):.1f} us" in rows.get("halo exchange by transport, 4 ranks", ""),
              f"the halo exchange's {exchange} us by MPI: {rows.get('halo exchange by transport, 4 ranks')}")
    residual = kernel_fraction(logs / "stencil.log", "residual (production)")
    laplacian = kernel_fraction(logs / "stencil.log", "laplacian apply (pairs)")
    check(f"{float(residual):.2f} / {float(laplacian):.2f}" in rows.get("residual / Laplacian apply", ""),
          f"residual and Laplacian fractions {residual}, {laplacian}")
    stage = kernel_fraction(logs / "flow.log", "velocity stage 2 (reads, keeps R)")
    check(f"/ {float(stage):.2f} /" in rows.get("velocity stages 1 / 2 / 3", ""), f"velocity stage 2 at {stage}")
    check(f"{one:.2f} ms" in rows.get("full 3D step", ""), f"the step's {one} ms")
    sweep_ms = float(kernel_line(logs / "stencil.log", "rbgs sweep, fused 64x8 phased (GPU)").split()[-3])
    check(f"{sweep_ms:.3f} ms: {0.6 / sweep_ms:.2f}x" in rows.get("red-black sweep vs torch", "") and
          "torch.compile 0.600 ms" in rows.get("red-black sweep vs torch", ""),
          f"the fused sweep ({sweep_ms} ms) against torch's faster red-black form (0.6 ms): "
          f"{rows.get('red-black sweep vs torch')}")

    result, rows = table(logs, "--device", "NVIDIA H100 80GB HBM3 x 2")
    check("<= 0.5 ns" in rows.get("full 3D step", "") and "<= 9 / 100 ms" in rows.get("V-cycle / solve to 1e-10", ""),
          "the H100's targets for an H100")
    check("<= 0.36 ns" in table(logs, "--device", "NVIDIA H200 x 2")[1].get("full 3D step", ""),
          "the H200's targets for an H200")

    torch_log = logs / "torch.log"
    kept = torch_log.read_text()
    torch_log.write_text("\n".join(torch_stencil_lines(32)) + "\n")
    result, rows = table(logs, "--strict")
    check(result.returncode != 0 and "torch.log times 32^3 cells, stencil.log 16^3" in result.stderr,
          f"torch timed at another size: {result.stderr}")
    torch_log.write_text(kept)

    reduce2 = logs / "reduce2.log"
    lines = [line for line in reduce2.read_text().splitlines() if ", nccl," not in line]  # GPU builds have NCCL's
    mpi_line = next(line for line in lines if ", mpi, back to back" in line)
    reduce2.write_text("\n".join(lines + [mpi_line.replace("mpi", "nccl").rsplit(None, 1)[0] + "  1234.50"]) + "\n")
    result, rows = table(logs, "--strict")
    check("1234.5 us (nccl)" in rows.get("allreduce of one value, 2 ranks", ""),
          f"NCCL's allreduce preferred: {rows.get('allreduce of one value, 2 ranks')}")
    check("nccl-tests" not in rows.get("allreduce of one value, 2 ranks", "nccl-tests"),
          f"no peer without nccl-tests' logs: {rows.get('allreduce of one value, 2 ranks')}")
    with reduce2.open("a") as log:
        log.write("  " + "device buffer, nccl, in a CUDA graph".ljust(44) + "  567.30\n")
    for name, (out_of_place, in_place) in {"nccl_tests2": (10.02, 9.61), "nccl_tests2_graph": (5.63, 5.44)}.items():
        (logs / f"{name}.log").write_text(nccl_tests_lines(out_of_place, in_place))
    result, rows = table(logs, "--strict")
    check("1234.5 us (nccl), 567.3 in a CUDA graph" in rows.get("allreduce of one value, 2 ranks", ""),
          f"the allreduce replayed from graphs: {rows.get('allreduce of one value, 2 ranks')}")
    check("nccl-tests 9.6 us, 5.4 in a graph, same run" in rows.get("allreduce of one value, 2 ranks", "") and
          rows.get("allreduce of one value, 2 ranks", "").rstrip().endswith("NOT met"),
          f"nccl-tests in place as the peer, the verdict on eddy's calls back to back: "
          f"{rows.get('allreduce of one value, 2 ranks')}")
    (logs / "nccl_tests2.log").write_text("# Collective test concluded: all_reduce_perf\n")
    result, rows = table(logs, "--strict")
    check(result.returncode != 0 and "nccl_tests2.log has no all_reduce_perf row of 8 bytes" in result.stderr,
          f"an nccl-tests log without its row: {result.stderr}")
    for name in ("nccl_tests2", "nccl_tests2_graph"):
        (logs / f"{name}.log").unlink()
    reduce2.unlink()
    result, rows = table(logs, "--strict")
    check(result.returncode == 0 and "not run (reduce2.log)" in rows.get("allreduce of one value, 2 ranks", ""),
          f"a missing log: {rows.get('allreduce of one value, 2 ranks')}")
    if four_ranks:
        (logs / "step4weak.log").unlink()
        result, rows = table(logs, "--strict")
        check("weak scaling, 4 GPUs" not in rows and "strong scaling, 4 GPUs" in rows,
              f"a four-rank row without its log: {sorted(rows)}")

    flow = logs / "flow.log"
    flow.write_text(flow.read_text().replace("divergence (production)", "divergence (renamed)"))
    result, rows = table(logs, "--strict")
    check(result.returncode != 0 and "flow.log has no kernel row 'divergence (production)'" in result.stderr,
          f"a renamed row under --strict: rc {result.returncode}, {result.stderr}")
    result, rows = table(logs)
    check(result.returncode == 0 and "unreadable" in rows.get("divergence / correction / diagnostics", ""),
          "a renamed row without --strict")

    result = subprocess.run([sys.executable, str(TABLE), str(work / "absent")], capture_output=True, text=True)
    check(result.returncode != 0 and "no directory" in result.stderr, f"a missing directory: {result.stderr}")

    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("bench table: all checks passed")


if __name__ == "__main__":
    main()
