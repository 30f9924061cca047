#!/usr/bin/env python3
"""Plot a scaling sweep (scripts/scaling.py): speed-up and parallel efficiency against ranks with the ideal lines
(and the efficiency of each run's median step, where the sweep has it), and the share of each phase of the steps as
stacked bars, into one PNG. The bars leave the output phase out (a sweep's runs end with a checkpoint that would
dwarf a short run's steps), as the efficiency does. The pressure solve shows as its compute, its
halo exchanges and its reductions (hatched, beside the other communication); sweeps from before that split show it
as one bar.

  python3 postprocess/plot_scaling.py runs/scaling-strong            # reads runs/scaling-strong/scaling.csv
  python3 postprocess/plot_scaling.py sweep/scaling.csv -o scaling.png
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from eddy_read import save_figure  # noqa: E402

PHASES = ["advance", "boundary", "halo", "poisson", "poisson_halo", "poisson_reduction", "projection", "reduction",
          "output"]
# Phases a sweep may lack (older sweeps counted the solver's communication inside poisson).
OPTIONAL = ["share_poisson_halo", "share_poisson_reduction", "steady_efficiency"]
REQUIRED = ["ranks", "seconds_per_step", "speedup", "efficiency"] + [
    f"share_{p}" for p in PHASES if f"share_{p}" not in OPTIONAL]
LABELS = {"poisson": "poisson (compute)", "poisson_halo": "poisson halo", "poisson_reduction": "poisson reductions"}
HATCHED = {"halo", "reduction", "poisson_halo", "poisson_reduction"}


class ScalingError(Exception):
    pass


def read_sweep(source):
    """The rows of scaling.csv (a file, or a sweep folder holding one), sorted by ranks, as dicts of floats."""
    path = os.path.join(source, "scaling.csv") if os.path.isdir(source) else source
    if not os.path.isfile(path):
        raise ScalingError(f"'{path}' does not exist: run scripts/scaling.py (or its 'collect' mode) first")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ScalingError(f"'{path}' has no runs")
    missing = [c for c in REQUIRED if c not in rows[0]]
    if missing:
        raise ScalingError(f"'{path}' lacks the column(s) {', '.join(missing)}: is it a scaling.py CSV?")
    try:
        table = [{k: float(v) for k, v in row.items() if k in REQUIRED + OPTIONAL + ["cells"]} for row in rows]
    except ValueError as error:
        raise ScalingError(f"'{path}': {error}") from error
    facts = {k: rows[0].get(k, "") for k in ("mode", "case", "host", "date", "commit", "threads_per_rank")}
    return sorted(table, key=lambda r: r["ranks"]), path, facts


def default_title(facts, rows):
    """'Strong scaling of cavity2d_re1000, 262,144 cells in all' and where and when the sweep ran."""
    mode = facts.get("mode") or "scaling"
    what = f"{mode.capitalize()} scaling" if mode in ("weak", "strong") else "Scaling"
    if facts.get("case"):
        what += f" of {facts['case']}"
    if "cells" in rows[0]:
        cells = int(rows[0]["cells"])
        what += f", {cells:,} cells on 1 rank" if mode == "weak" else f", {cells:,} cells in all"
    where = ", ".join(f"{k} {facts[k]}" for k in ("host", "date", "commit") if facts.get(k))
    threads = facts.get("threads_per_rank")
    if threads and threads not in ("0", "0.0"):
        where += f", {int(float(threads))} thread(s) per rank"
    return what + ("\n" + where if where else "")


def plot_scaling(rows, output, title, mode=""):
    """Writes the figure of the sweep `rows` to `output`: weak sweeps show the time per step (ideal: flat), strong
    sweeps the speed-up (ideal: the rank ratio)."""
    ranks = [r["ranks"] for r in rows]
    base = ranks[0]
    fig, axes = plt.subplots(1, 3, figsize=(15, 5))
    if mode == "weak":
        axes[0].plot(ranks, [1e3 * r["seconds_per_step"] for r in rows], "o-", label="eddy")
        axes[0].axhline(1e3 * rows[0]["seconds_per_step"], color="k", linestyle="--", label="ideal (constant)")
        axes[0].set_ylabel("time per step (ms)")
        axes[0].set_ylim(0, None)
    else:
        axes[0].plot(ranks, [r["speedup"] for r in rows], "o-", label="eddy")
        axes[0].plot(ranks, [n / base for n in ranks], "k--", label="ideal")
        axes[0].set_ylabel(f"speed-up over {int(base)} rank(s)")
    axes[1].plot(ranks, [r["efficiency"] for r in rows], "o-", label="eddy")
    efficiencies = [r["efficiency"] for r in rows]
    if "steady_efficiency" in rows[0]:
        steady = [r["steady_efficiency"] for r in rows]
        axes[1].plot(ranks, steady, "s:", label="eddy, median steps")
        efficiencies += steady
    axes[1].axhline(1.0, color="k", linestyle="--", label="ideal")
    axes[1].set_ylabel("parallel efficiency")
    axes[1].set_ylim(0, 1.1 * max(1.0, max(efficiencies)))
    for ax in axes[:2]:
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks, [str(int(n)) for n in ranks])
        ax.set_xlabel("ranks")
        ax.grid(True, alpha=0.3)
        ax.legend()
    positions = range(len(rows))
    bottom = [0.0] * len(rows)
    stepping = [1.0 - r["share_output"] for r in rows]
    for phase in PHASES:
        if phase == "output" or f"share_{phase}" not in rows[0]:
            continue
        heights = [100 * r[f"share_{phase}"] / s if s > 0 else 0.0 for r, s in zip(rows, stepping)]
        axes[2].bar(positions, heights, bottom=bottom, label=LABELS.get(phase, phase),
                    hatch="//" if phase in HATCHED else None)
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes[2].set_xticks(list(positions), [str(int(n)) for n in ranks])
    axes[2].set_xlabel("ranks")
    axes[2].set_ylabel("share of the steps, output left out (%)")
    axes[2].set_ylim(0, 100)
    axes[2].set_xlim(-0.6, len(rows) - 0.4)
    axes[2].legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    save_figure(fig, title, output, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="sweep folder of scripts/scaling.py, or its scaling.csv")
    parser.add_argument("-o", "--output", help="PNG to write (default scaling.png next to the CSV)")
    parser.add_argument("--title", help="figure title (default: the sweep's mode, case, cells, host, date, commit)")
    args = parser.parse_args()
    try:
        rows, path, facts = read_sweep(args.source)
    except ScalingError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    output = args.output or os.path.join(os.path.dirname(os.path.abspath(path)), "scaling.png")
    plot_scaling(rows, output, args.title or default_title(facts, rows), facts.get("mode", ""))
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
