#!/usr/bin/env python3
"""Forces on immersed bodies from physics.csv: drag and lift coefficients against time, one curve per run, with the
reference band of a Schafer & Turek (1996) benchmark; prints each run's extremes over a closing window, the Strouhal
number of the lift and the pressure difference of probes named `front` and `back` (the benchmark's surface points)."""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from eddy_read import save_figure  # noqa: E402

# Schafer & Turek (1996), Table 4 (2D-1, steady, Re 20) and Table 5 (2D-2, periodic, Re 100): the lower and upper
# bounds of the reference values, coefficients on the mean inflow velocity and the diameter.
BENCHMARKS = {
    "2d1": {"Re": 20, "cd": (5.57, 5.59), "cl": (0.0104, 0.0110)},
    "2d2": {"Re": 100, "cd_max": (3.22, 3.24), "cl_max": (0.99, 1.01), "st": (0.295, 0.305)},
}


def read_physics(path):
    """Columns of a physics.csv (a run folder or the file itself) as lists of floats, by name."""
    if os.path.isdir(path):
        path = os.path.join(path, "physics.csv")
    if not os.path.isfile(path):
        sys.exit(f"plot_bodies.py: no physics.csv at {path}")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        sys.exit(f"plot_bodies.py: {path} holds no steps")
    return {name: [float(r[c]) for r in rows[1:]] for c, name in enumerate(rows[0])}


def strouhal(time, lift, length, velocity):
    """D / (period U) from the upward crossings of the lift's mean; 0 when fewer than three."""
    mean = sum(lift) / len(lift)
    crossings = [t0 + (t1 - t0) * (mean - a) / (b - a)
                 for t0, t1, a, b in zip(time, time[1:], lift, lift[1:]) if a < mean <= b]
    if len(crossings) < 3:
        return 0.0
    return length / ((crossings[-1] - crossings[0]) / (len(crossings) - 1) * velocity)


def summarise(label, data, body, window, length, velocity):
    """Prints the closing window's extremes, St and Delta p of one run; returns them."""
    time = data["time"]
    first = next(i for i, t in enumerate(time) if t >= time[-1] - window)
    cd, cl = data[body + "_cd"][first:], data[body + "_cl"][first:]
    facts = {"cd_max": max(cd), "cd_min": min(cd), "cl_max": max(cl), "cl_min": min(cl),
             "st": strouhal(time[first:], cl, length, velocity)}
    if "front_p" in data and "back_p" in data:
        dp = [f - b for f, b in zip(data["front_p"][first:], data["back_p"][first:])]
        facts["dp_max"], facts["dp_last"] = max(dp), dp[-1]
    print(f"{label}: t in [{time[first]:.3f}, {time[-1]:.3f}]  " +
          "  ".join(f"{k} {v:.4f}" for k, v in facts.items()))
    return facts


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("runs", nargs="+", help="run folders (or physics.csv files)")
    parser.add_argument("--label", action="append", help="legend label per run (default: the folder name)")
    parser.add_argument("--body", default="cylinder", help="the body's name in the deck (default cylinder)")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), help="draw this benchmark's reference bands")
    parser.add_argument("--window", type=float, default=2.0, help="closing time window for the extremes, in T")
    parser.add_argument("--length", type=float, default=0.1, help="reference length D for St (default 0.1)")
    parser.add_argument("--velocity", type=float, default=1.0, help="reference velocity U for St (default 1)")
    parser.add_argument("--output", help="figure file (default: bodies.png in the first run folder)")
    args = parser.parse_args()
    labels = args.label or [os.path.basename(os.path.normpath(r)) for r in args.runs]
    if len(labels) != len(args.runs):
        sys.exit("plot_bodies.py: give one --label per run")
    fig, (ax_cd, ax_cl) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    shown = {"cd": [], "cl": []}  # values after the impulsive start, for the axis ranges
    for run, label in zip(args.runs, labels):
        data = read_physics(run)
        if args.body + "_cd" not in data:
            sys.exit(f"plot_bodies.py: {run} has no body called {args.body}")
        summarise(label, data, args.body, args.window, args.length, args.velocity)
        ax_cd.plot(data["time"], data[args.body + "_cd"], label=label, lw=0.8)
        ax_cl.plot(data["time"], data[args.body + "_cl"], label=label, lw=0.8)
        late = [i for i, t in enumerate(data["time"]) if t >= 0.1 * data["time"][-1]]
        for key in shown:
            shown[key] += [data[args.body + "_" + key][i] for i in late]
    title = f"forces on '{args.body}'"
    if args.benchmark:
        ref = BENCHMARKS[args.benchmark]
        title += f", Schafer & Turek (1996) {args.benchmark.upper()} at Re {ref['Re']} (grey: reference range)"
        for key, ax in (("cd", ax_cd), ("cl", ax_cl)):
            for band in (ref.get(key), ref.get(key + "_max")):
                if band:
                    ax.axhspan(band[0], band[1], color="0.6", alpha=0.5, lw=0)
                    shown[key] += list(band)
    for key, ax in (("cd", ax_cd), ("cl", ax_cl)):
        if shown[key]:
            low, high = min(shown[key]), max(shown[key])
            margin = 0.05 * (high - low) or 0.05 * abs(high) or 1
            ax.set_ylim(low - margin, high + margin)
    ax_cd.set_ylabel("drag coefficient C_D = 2 F_x / (rho U^2 D)")
    ax_cl.set_ylabel("lift coefficient C_L = 2 F_y / (rho U^2 D)")
    ax_cl.set_xlabel("time (T)")
    ax_cd.set_title(title)
    ax_cd.legend()
    if args.output is None:
        first = args.runs[0] if os.path.isdir(args.runs[0]) else os.path.dirname(os.path.abspath(args.runs[0]))
        args.output = os.path.join(first, "bodies.png")
    save_figure(fig, None, args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
