#!/usr/bin/env python3
"""Weak and strong scaling sweeps for eddy.

For each rank count, writes the run's settings (deck + overrides), runs it with mpirun (or writes a Slurm batch
script, one GPU per rank), and collects every run's summary.json into one CSV:
ranks, cells, time per step, cell updates/s, efficiency, communication shares (all, and the pressure solve's own),
the pressure solver's iterations per step, and phase shares (the pressure solve split into its compute, halo exchanges
and reductions). Where a run's solver takes more iterations a step than the sweep's first run, part of its lost
efficiency is the solver's convergence, not communication, and the printed table says so.
The first steps of a run also set things up: CUDA graphs captured, the neighbours' memory opened. A short run's mean step carries them, so the CSV also holds each run's median step
(telemetry.csv) and the efficiency of the medians (`steady_efficiency`); the table notes runs whose mean step lies more
than 10% above their median.
Speed-up and efficiency compare the time per step without output (`stepping_seconds_per_step`): the sweep's runs
write no fields, but every run ends with a checkpoint, which would otherwise dominate a short sweep. For the same
reason the table's communication shares (`stepping_communication_share`, `stepping_poisson_communication_share`) are
of the time without output; the CSV's other shares are the run's own, output included.

  scripts/scaling.py weak   --deck inputs/taylor_green3d_re1600.yaml --ranks 1 2 4 --cells-per-rank 64 64 64
  scripts/scaling.py weak   ... --length-per-rank 3.1416 3.1416 3.1416   # another one-rank box than the deck's
  scripts/scaling.py weak   ... --stretch          # keep the deck's box: cells shrink along the split axes
  scripts/scaling.py strong --deck inputs/taylor_green3d_re1600.yaml --ranks 1 2 4 --cells 128 128 128
  scripts/scaling.py strong ... --slurm --account abc     # write sweep/run_N.sbatch instead of running
  scripts/scaling.py collect --out runs/scaling-strong    # (re)build the CSV from finished runs

Weak scaling keeps the spacing of one rank: each run's box is the one-rank box (the deck's, read with `eddy check`,
or --length-per-rank) times the process grid, so every rank solves the same problem. With --stretch the box stays
the deck's and the cells get thinner along the axes the ranks split; on 2 ranks, cells of aspect ratio 2 doubled
the pressure solver's V-cycles per step of the Taylor-Green deck.
"""
import argparse
import csv
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

PHASES = ["advance", "boundary", "halo", "poisson", "poisson_halo", "poisson_reduction", "projection", "reduction",
          "output"]


def process_grid(ranks, dims):
    """Split `ranks` over the axes, doubling the slowest axis first, so weak-scaled grids stay close to cubes."""
    grid = [1] * dims
    remaining = ranks
    axis = dims - 1
    while remaining > 1:
        for factor in (2, 3, 5, 7):
            if remaining % factor == 0:
                break
        else:
            factor = remaining
        grid[axis] *= factor
        remaining //= factor
        axis = (axis - 1) % dims
    return grid


def run_settings(args, ranks):
    dims = len(args.cells or args.cells_per_rank)
    if args.mode == "weak":
        split = process_grid(ranks, dims)
        cells = [c * p for c, p in zip(args.cells_per_rank, split)]
        overrides = [f"parallel.process_grid=[{','.join(map(str, split))}]"]
        if not args.stretch:
            # Copies of the one-rank box side by side: the spacing, and so the physics per cell, stays the same.
            lengths = [length * p for length, p in zip(args.length_per_rank, split)]
            overrides.append(f"domain.length=[{','.join(repr(length) for length in lengths)}]")
    else:
        cells = list(args.cells)
        overrides = []
    out = Path(args.out) / f"np{ranks}"
    overrides += [
        f"domain.cells=[{','.join(map(str, cells))}]",
        f"time.max_steps={args.steps}",
        "time.end_time=1e30",
        "output.interval_steps=0",
        "output.interval_time=0",
        "output.checkpoint_interval_steps=0",
        f"output.directory={out}",
    ] + list(args.set or [])
    command = [args.eddy, "run", args.deck] + [item for o in overrides for item in ("--set", o)]
    return cells, out, command


def deck_box(args, parser):
    """The deck's box per axis (its `--set` overrides applied), as `eddy check` resolves it."""
    if not os.access(args.eddy, os.X_OK):
        parser.error(f"--eddy: not an executable: {args.eddy}; weak scaling reads the deck's box with it (or pass "
                     "--length-per-rank, or --stretch)")
    command = [args.eddy, "check", args.deck] + [item for o in (args.set or []) for item in ("--set", o)]
    result = subprocess.run(command, capture_output=True, text=True)
    match = re.search(r"^domain:\n(?:  .*\n)*?  length: \[([^\]]*)\]", result.stdout, re.MULTILINE)
    if result.returncode != 0 or not match:
        parser.error(f"--deck: eddy check could not resolve the box of {args.deck}: {result.stdout}{result.stderr}")
    lengths = [float(x) for x in match.group(1).split(",")]
    if len(lengths) != len(args.cells_per_rank):
        parser.error(f"--cells-per-rank: {len(args.cells_per_rank)} axes, but the deck's box has {len(lengths)}")
    return lengths


def launcher(args, ranks):
    return shlex.split(args.launcher.format(n=ranks))


def write_slurm(args, ranks, command, out):
    """A batch script for one run: one GPU per rank (--gpus-per-task 1, the default) or --threads cores per rank on
    CPUs (--gpus-per-task 0), signalled two minutes before its time limit so that it stops with a checkpoint."""
    script = Path(args.out) / f"run_np{ranks}.sbatch"
    lines = [
        "#!/bin/bash",
        f"#SBATCH --job-name=eddy-{args.mode}-{ranks}",
        f"#SBATCH --ntasks={ranks}",
        f"#SBATCH --cpus-per-task={args.threads}",
        f"#SBATCH --time={args.time_limit}",
        f"#SBATCH --output={out}.slurm.log",
        "#SBATCH --signal=TERM@120",
    ]
    if args.gpus_per_task > 0:
        lines.append(f"#SBATCH --gpus-per-task={args.gpus_per_task}")
    if args.account:
        lines.append(f"#SBATCH --account={args.account}")
    lines += [f"export OMP_NUM_THREADS={args.threads} OMP_PROC_BIND=spread OMP_PLACES=threads"]
    if args.gpus_per_task > 0:
        lines.append("export NCCL_NVLS_ENABLE=0")
    lines += ["srun " + shlex.join(command), ""]
    script.write_text("\n".join(lines))
    return script


def sweep_facts():
    """Where and when the sweep ran: host, date, commit, for every row of the CSV."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).resolve().parent).stdout.strip()
    except OSError:
        commit = ""
    return {"host": platform.node(), "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "commit": commit or "unknown"}


def stepping_seconds(summary):
    """Wall time per step without the output phase (the final checkpoint of a sweep's run)."""
    output = summary.get("phase_seconds", {}).get("output", 0.0)
    return max(summary["wall_seconds"] - output, 0.0) / summary["steps"]


def share_of_stepping(summary, share):
    """A share of the whole run as a share of its time without the output phase (what the efficiency compares)."""
    rest = 1.0 - summary.get("phase_share", {}).get("output", 0.0)
    return share / rest if rest > 0 else 0.0


def on_ranks(ranks):
    """'on 1 rank', 'on 4 ranks'."""
    return f"on {ranks} rank{'' if ranks == 1 else 's'}"


def median_step_seconds(run_dir):
    """The median wall time of a run's steps (its telemetry.csv), or None where the run wrote none."""
    path = Path(run_dir) / "telemetry.csv"
    if not path.is_file():
        return None
    with open(path) as f:
        times = [float(row["wall_seconds"]) for row in csv.DictReader(f)]
    return statistics.median(times) if times else None


def warm_up_notes(table, tolerance=0.10):
    """One line per run whose mean step (output left out) lies more than `tolerance` above its median step."""
    notes = []
    for r in table:
        mean, median = r["stepping_seconds_per_step"], r["median_step_seconds"]
        if median > 0 and mean > (1 + tolerance) * median:
            above = 100 * (mean / median - 1)
            notes.append(f"note: {on_ranks(r['ranks'])} the mean step ({mean:.4g} s) is {above:.0f}% above the median "
                         f"({median:.4g} s): the first steps' set-up weighs in this run; steady_efficiency compares "
                         f"the medians, or run more --steps")
    return notes


def iteration_notes(table, tolerance=0.05):
    """One line per run whose pressure solver took more than `tolerance` more iterations a step than the first run."""
    base = table[0]["poisson_iterations_per_step"]
    notes = []
    for r in table[1:]:
        more = r["poisson_iterations_per_step"]
        if base > 0 and more > (1 + tolerance) * base:
            notes.append(f"note: {on_ranks(r['ranks'])} the pressure solver took {more:.2f} iterations a step "
                         f"against {base:.2f} {on_ranks(table[0]['ranks'])}: part of the efficiency lost there is "
                         f"the solver's convergence, not communication")
    return notes


def collect(out_dir):
    rows = []
    for summary_path in sorted(Path(out_dir).glob("np*/summary.json"), key=lambda p: int(p.parent.name[2:])):
        with open(summary_path) as f:
            s = json.load(f)
        median = median_step_seconds(summary_path.parent)
        s["median_step_seconds"] = median if median is not None else stepping_seconds(s)
        rows.append(s)
    if not rows:
        sys.exit(f"scaling.py: no np*/summary.json under {out_dir}: did the runs finish?")
    mode = rows[0].get("scaling_mode", "")
    base = rows[0]
    table = []
    for s in rows:
        ranks = s["ranks"]
        speedup = stepping_seconds(base) / stepping_seconds(s)
        ideal = ranks / base["ranks"]
        steady_speedup = base["median_step_seconds"] / s["median_step_seconds"]
        if mode == "weak":
            efficiency, steady_efficiency = speedup, steady_speedup
        else:
            efficiency, steady_efficiency = speedup / ideal, steady_speedup / ideal
        row = {
            "mode": mode,
            "case": s.get("case", ""),
            "ranks": ranks,
            "cells": s["cells"],
            "seconds_per_step": s["seconds_per_step"],
            "stepping_seconds_per_step": stepping_seconds(s),
            "cell_updates_per_second": s["cell_updates_per_second"],
            "speedup": speedup,
            "efficiency": efficiency,
            "median_step_seconds": s["median_step_seconds"],
            "steady_efficiency": steady_efficiency,
            "communication_share": s.get("communication_share", 0.0),
            "poisson_communication_share": s.get("poisson_communication_share", 0.0),
            "stepping_communication_share": share_of_stepping(s, s.get("communication_share", 0.0)),
            "stepping_poisson_communication_share": share_of_stepping(s, s.get("poisson_communication_share", 0.0)),
            "poisson_iterations_per_step": s.get("poisson_iterations_per_step", 0.0),
            "threads_per_rank": s.get("machine", {}).get("threads_per_rank", 0),
            "ranks_on_node": s.get("machine", {}).get("ranks_on_node", 0),
            "cores_on_node": s.get("machine", {}).get("cores_on_node", 0),
            "core_share": s.get("machine", {}).get("core_share", 1.0),
            "verdict": s.get("scaling_verdict", ""),
        }
        row.update(s.get("sweep", {}))
        for phase in PHASES:
            row[f"share_{phase}"] = s.get("phase_share", {}).get(phase, 0.0)
        table.append(row)
    csv_path = Path(out_dir) / "scaling.csv"
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0].keys()))
        writer.writeheader()
        writer.writerows(table)
    print(f"{'ranks':>5} {'cells':>12} {'s/step':>10} {'no output':>10} {'median':>10} {'cells/s':>10} {'eff':>6} "
          f"{'steady':>6} {'comm':>6} {'p-comm':>6} {'it/step':>7}")
    for r in table:
        print(f"{r['ranks']:5d} {r['cells']:12d} {r['seconds_per_step']:10.4g} {r['stepping_seconds_per_step']:10.4g} "
              f"{r['median_step_seconds']:10.4g} {r['cell_updates_per_second']:10.3g} {r['efficiency']:6.2f} "
              f"{r['steady_efficiency']:6.2f} {r['stepping_communication_share']:6.2f} "
              f"{r['stepping_poisson_communication_share']:6.2f} "
              f"{r['poisson_iterations_per_step']:7.2f}")
    for note in warm_up_notes(table) + iteration_notes(table):
        print(note)
    for r in table:
        if r["ranks"] > 1 and r["verdict"]:
            print(f"{on_ranks(r['ranks'])}: {r['verdict']}")
    print(f"wrote {csv_path}")
    return csv_path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["weak", "strong", "collect"])
    parser.add_argument("--deck", help="input deck (YAML)")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--cells", type=int, nargs="+", help="strong scaling: total cells per axis")
    parser.add_argument("--cells-per-rank", type=int, nargs="+", help="weak scaling: cells per axis on each rank")
    parser.add_argument("--length-per-rank", type=float, nargs="+",
                        help="weak scaling: the one-rank box size per axis; the box grows with the process grid "
                             "(default: the deck's box)")
    parser.add_argument("--stretch", action="store_true",
                        help="weak scaling: keep the deck's box for every run, so cells shrink along the split axes")
    parser.add_argument("--steps", type=int, default=20, help="time steps per run (default 20)")
    parser.add_argument("--set", action="append", help="extra deck override key=value (repeatable)")
    parser.add_argument("--out", help="sweep folder (default runs/scaling-<mode>)")
    parser.add_argument("--eddy", default="build/openmp/src/eddy", help="eddy executable")
    parser.add_argument("--launcher", default="mpirun -np {n}", help="launch command, {n} = ranks")
    parser.add_argument("--slurm", action="store_true", help="write Slurm batch scripts instead of running")
    parser.add_argument("--account", help="Slurm account")
    parser.add_argument("--time-limit", default="00:30:00", help="Slurm time limit")
    parser.add_argument("--gpus-per-task", type=int, default=1, help="Slurm: GPUs per rank (0 for a CPU build)")
    parser.add_argument("--threads", type=int, default=1, help="Slurm: cores (OpenMP threads) per rank")
    args = parser.parse_args()

    if args.mode == "collect":
        if not args.out:
            parser.error("collect needs --out")
        collect(args.out)
        return
    if not args.deck or not Path(args.deck).is_file():
        parser.error(f"--deck: file not found: {args.deck}")
    if args.mode == "weak" and not args.cells_per_rank:
        parser.error("weak scaling needs --cells-per-rank")
    if args.length_per_rank and (args.mode != "weak" or len(args.length_per_rank) != len(args.cells_per_rank)
                                 or min(args.length_per_rank) <= 0):
        parser.error("--length-per-rank: weak scaling only, one positive length per axis of --cells-per-rank, got "
                     f"{args.length_per_rank}")
    if args.stretch and (args.mode != "weak" or args.length_per_rank):
        parser.error("--stretch: weak scaling only, and not with --length-per-rank (which grows the box)")
    if args.mode == "weak" and not args.stretch and not args.length_per_rank:
        args.length_per_rank = deck_box(args, parser)
    if args.mode == "strong" and not args.cells:
        parser.error("strong scaling needs --cells")
    if not args.slurm and not os.access(args.eddy, os.X_OK):
        parser.error(f"--eddy: not an executable: {args.eddy} (build eddy first, or pass its path)")
    args.out = args.out or f"runs/scaling-{args.mode}"
    if Path(args.out).exists() and any(Path(args.out).glob("np*")):
        sys.exit(f"scaling.py: {args.out} already holds a sweep; choose another --out")
    Path(args.out).mkdir(parents=True, exist_ok=True)

    facts = sweep_facts()
    if not args.slurm and not shutil.which(launcher(args, 1)[0]):
        sys.exit(f"scaling.py: the launcher '{launcher(args, 1)[0]}' is not on this machine's PATH; on the Debian path "
                 "run the sweep inside eddy's environment: scripts/in-env.sh python3 scripts/scaling.py ...")
    for ranks in args.ranks:
        cells, out, command = run_settings(args, ranks)
        full = launcher(args, ranks) + command
        if args.slurm:
            print(f"wrote {write_slurm(args, ranks, command, out)}")
            continue
        print(f"== {ranks} rank(s), cells {cells}: {shlex.join(full)}", flush=True)
        result = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        (Path(args.out) / f"np{ranks}.log").write_text(result.stdout)
        if result.returncode != 0:
            sys.exit(f"scaling.py: run on {ranks} ranks failed (exit {result.returncode}); see {args.out}/np{ranks}.log")
        summary = out / "summary.json"
        data = json.loads(summary.read_text())
        data["scaling_mode"] = args.mode
        data["sweep"] = facts
        summary.write_text(json.dumps(data, indent=1))
    if not args.slurm:
        collect(args.out)


if __name__ == "__main__":
    main()
