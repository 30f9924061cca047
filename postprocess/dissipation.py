#!/usr/bin/env python3
"""The kinetic-energy dissipation rate of runs, -dk/dt with k the kinetic energy per unit volume, from telemetry.csv.

Prints each run's peak and when it occurs; with two or more runs, the largest difference of each from the first over
the times they share (a tolerance or a grid study). Optionally writes the rates as CSV and plots them.

  postprocess/dissipation.py runs/tg_256 runs/tg_512 --plot dissipation.png

The rate between two successive steps is (E_n - E_{n+1}) / (t_{n+1} - t_n) / volume, at the mid time. The domain's
volume comes from the run's deck.yaml (domain.length; area in 2D), or from --volume.
"""
import argparse
import os

import numpy as np

from eddy_read import EddyReadError, read_telemetry, run_main, save_figure


def domain_volume(run_dir):
    """The product of domain.length over the deck's dimensions, from `run_dir`/deck.yaml."""
    path = os.path.join(run_dir, "deck.yaml")
    if not os.path.isfile(path):
        raise EddyReadError(f"'{path}' does not exist: give the domain's volume with --volume")
    try:
        import yaml
    except ImportError as error:
        raise EddyReadError("reading deck.yaml needs PyYAML (python3-yaml): install it or give --volume") from error
    with open(path) as f:
        deck = yaml.safe_load(f)
    domain = deck.get("domain", {}) if isinstance(deck, dict) else {}
    lengths, dimensions = domain.get("length"), domain.get("dimensions", 3)
    if not isinstance(lengths, list) or len(lengths) < dimensions:
        raise EddyReadError(f"'{path}': domain.length is {lengths!r}, expected {dimensions} lengths")
    return float(np.prod([float(x) for x in lengths[:dimensions]]))


def dissipation_rate(run_dir, volume=None):
    """(mid times, -dk/dt) of `run_dir` between successive telemetry rows."""
    t = read_telemetry(run_dir)
    time, energy = t["time"], t["kinetic_energy"]
    if len(time) < 2:
        raise EddyReadError(f"'{run_dir}' has {len(time)} telemetry rows: a rate needs at least two steps")
    if volume is None:
        volume = domain_volume(run_dir)
    mid = 0.5 * (time[1:] + time[:-1])
    return mid, -(energy[1:] - energy[:-1]) / (time[1:] - time[:-1]) / volume


def largest_difference(reference, other):
    """(largest |difference|, its time) of the rate `other` from `reference` over the times both cover."""
    t_ref, rate_ref = reference
    t, rate = other
    shared = (t_ref >= max(t_ref[0], t[0])) & (t_ref <= min(t_ref[-1], t[-1]))
    if not shared.any():
        return float("nan"), float("nan")
    difference = np.abs(np.interp(t_ref[shared], t, rate) - rate_ref[shared])
    worst = int(np.argmax(difference))
    return float(difference[worst]), float(t_ref[shared][worst])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="run folders (the first is the reference for the differences)")
    parser.add_argument("--volume", type=float, help="the domain's volume (default: from each run's deck.yaml)")
    parser.add_argument("--csv", help="write every run's rate to this CSV file (columns run, time, rate)")
    parser.add_argument("--plot", help="write a figure of the rates to this PNG file")
    args = parser.parse_args()
    rates = [dissipation_rate(run, args.volume) for run in args.runs]
    width = max(len(run) for run in args.runs)
    print(f"{'run':<{width}}  {'steps':>6}  {'t end':>8}  {'peak -dk/dt':>12}  {'at t':>7}")
    for run, (t, rate) in zip(args.runs, rates):
        peak = int(np.argmax(rate))
        print(f"{run:<{width}}  {len(t) + 1:>6}  {t[-1]:>8.3f}  {rate[peak]:>12.6e}  {t[peak]:>7.3f}")
    for run, rate in zip(args.runs[1:], rates[1:]):
        difference, when = largest_difference(rates[0], rate)
        print(f"largest |difference| of {run} from {args.runs[0]}: {difference:.3e} at t = {when:.3f}")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("run,time,rate\n")
            for run, (t, rate) in zip(args.runs, rates):
                for time, value in zip(t, rate):
                    f.write(f"{run},{time:.10g},{value:.12e}\n")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4.5))
        for run, (t, rate) in zip(args.runs, rates):
            ax.plot(t, rate, label=os.path.basename(os.path.abspath(run)))
        ax.set_xlabel("time")
        ax.set_ylabel("-dk/dt")
        ax.legend()
        save_figure(fig, None, args.plot)


if __name__ == "__main__":
    run_main(main)
