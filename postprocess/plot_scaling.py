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
        table = [{k: float(v) for k, v in row.items() if k in REQUIRED + OPTIONAL} for row in rows]
    except ValueError as error:
        raise ScalingError(f"'{path}': {error}") from error
    return sorted(table, key=lambda r: r["ranks"]), path


def plot_scaling(rows, output, title):
    """Writes the figure of the sweep `rows` to `output`."""
    ranks = [r["ranks"] for r in rows]
    base = ranks[0]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
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
    axes[2].legend(fontsize="small", loc="lower right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="sweep folder of scripts/scaling.py, or its scaling.csv")
    parser.add_argument("-o", "--output", help="PNG to write (default scaling.png next to the CSV)")
    parser.add_argument("--title", default="eddy scaling", help="figure title")
    args = parser.parse_args()
    try:
        rows, path = read_sweep(args.source)
    except ScalingError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    output = args.output or os.path.join(os.path.dirname(os.path.abspath(path)), "scaling.png")
    plot_scaling(rows, output, args.title)
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
