#!/usr/bin/env python3
"""Turbulent channel flow in wall units against a DNS reference (default: Moser, Kim & Mansour 1999, Re_tau = 178):
reads the time-averaged profiles RUN_DIR/statistics/profiles_NNNNNN.csv (the highest step unless --step), folds the
two halves of the channel about its centreline and writes a PNG with U+ against log y+ (with the viscous sublayer and
the log law) and the rms velocities and -<u'v'>+ against y+; where physics.csv holds the driving pressure gradient G
of a constant flow rate, also Re_tau against time from it (u_tau^2 = G h) with the averaging window. Prints Re_tau,
the largest relative error of U+ for 5 <= y+ <= 180 and the peaks of the rms velocities and of -<u'v'>+ against the
reference; with --check the exit status is 2 when one is outside its tolerance (Re_tau 2%, U+ 2%, peaks 5%).

The profile axis must be y, bounded by no-slip walls at both ends (the file then has half_height and
friction_velocity). Reference CSV columns: y_plus,U_plus,uu_plus,vv_plus,ww_plus,uv_plus ('#' lines are comments)."""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from eddy_read import EddyReadError, numbered_files, read_deck_facts, run_main, save_figure  # noqa: E402

DEFAULT_REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "regression",
                                 "data", "mkm1999_chan180.csv")
TOLERANCES = {"Re_tau": 0.02, "U+": 0.02, "peak": 0.05}
KAPPA, B = 0.41, 5.2


def profile_files(run_dir):
    """Profile files of a run folder, sorted by step: list of (step, path)."""
    if not os.path.isdir(run_dir):
        raise EddyReadError(f"run folder '{run_dir}' does not exist")
    found = numbered_files(os.path.join(run_dir, "statistics"), "profiles", ".csv")
    if not found:
        raise EddyReadError(f"run folder '{run_dir}' holds no statistics/profiles_NNNNNN.csv; "
                            "enable the run's statistics (averaged profiles)")
    return found


def read_profiles(path):
    """A profiles_NNNNNN.csv as (metadata, columns): metadata from the '# key = value' lines (numbers as floats,
    the rest as strings), columns as numpy arrays by name."""
    meta, lines = {}, []
    try:
        with open(path) as f:
            text = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise EddyReadError(f"cannot read '{path}': {error}") from error
    for line in text:
        if line.startswith("#"):
            found = re.fullmatch(r"#\s*([A-Za-z_]\w*)\s*=\s*(.*?)\s*", line)
            if found:
                key, value = found.groups()
                try:
                    meta[key] = float(value)
                except ValueError:
                    meta[key] = value
        elif line.strip():
            lines.append(line)
    rows = list(csv.reader(lines))
    if not rows:
        raise EddyReadError(f"'{path}' has no CSV header: not an eddy profiles file")
    header = [name.strip() for name in rows[0]]
    missing = [name for name in ("y", "mean_u", "uu", "vv", "uv") if name not in header]
    if missing:
        raise EddyReadError(f"'{path}' lacks the columns {', '.join(missing)}: not an eddy profiles file")
    values = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            if len(row) != len(header):
                raise ValueError(f"{len(row)} values for {len(header)} columns")
            values.append([float(v) for v in row])
        except ValueError as error:
            raise EddyReadError(f"'{path}' data line {number - 1}: {error}") from error
    if len(values) < 4:
        raise EddyReadError(f"'{path}' has {len(values)} data rows; at least 4 are needed")
    data = np.array(values)
    return meta, {name: data[:, c] for c, name in enumerate(header)}


def fold(path, meta, cols):
    """Wall units of the two halves averaged (rows i and N-1-i): dict of y+, U+, u/v/w rms+ (w None in 2D) and
    uv+ with the lower wall's sign, plus u_tau, nu, Re_tau."""
    axis = str(meta.get("axis", "y"))
    if axis != "y":
        raise EddyReadError(f"'{path}' holds profiles along {axis}; only y (walls at y_low and y_high) is supported")
    for key in ("half_height", "friction_velocity", "viscosity"):
        if not isinstance(meta.get(key), float):
            raise EddyReadError(f"'{path}' has no number '# {key} = ...': the y axis needs no-slip walls at both ends "
                                f"(walls = '{meta.get('walls', '')}')")
    u_tau, nu, h = meta["friction_velocity"], meta["viscosity"], meta["half_height"]
    y = cols["y"]
    if u_tau <= 0 or nu <= 0 or h <= 0 or np.any(np.diff(y) <= 0):
        raise EddyReadError(f"'{path}': friction_velocity, viscosity, half_height must be > 0 and y increasing")
    low = 0.5 * (y[0] + y[-1]) - h
    d = 0.5 * ((y - low) + (low + 2 * h - y[::-1]))  # distance to the nearer wall, mirrored rows averaged
    half = (len(y) + 1) // 2

    def sym(values):
        return (0.5 * (values + values[::-1]))[:half]

    rms = {c: np.sqrt(np.maximum(sym(cols[c + c]), 0)) / u_tau if c + c in cols else None for c in "uvw"}
    re_tau = meta["re_tau"] if isinstance(meta.get("re_tau"), float) else u_tau * h / nu
    return {"y+": d[:half] * u_tau / nu, "U+": sym(cols["mean_u"]) / u_tau, "u_rms+": rms["u"], "v_rms+": rms["v"],
            "w_rms+": rms["w"], "uv+": (0.5 * (cols["uv"] - cols["uv"][::-1]))[:half] / u_tau ** 2,
            "u_tau": u_tau, "nu": nu, "Re_tau": re_tau}


def read_reference(path):
    """Reference columns (y_plus, U_plus, uu_plus, vv_plus, ww_plus, uv_plus) as numpy arrays."""
    if not os.path.isfile(path):
        raise EddyReadError(f"reference file '{path}' does not exist")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    needed = ["y_plus", "U_plus", "uu_plus", "vv_plus", "ww_plus", "uv_plus"]
    if not rows or not set(needed) <= set(rows[0]):
        raise EddyReadError(f"'{path}' lacks the columns {needed}")
    try:
        return {name: np.array([float(row[name]) for row in rows]) for name in needed}
    except (TypeError, ValueError) as error:
        raise EddyReadError(f"'{path}' has a value that is not a number: {error}") from error


def compare(run, ref):
    """Rows (quantity, eddy, reference, relative error, tolerance); eddy None for a quantity the run lacks."""
    rows = [("Re_tau", run["Re_tau"], ref["y_plus"].max(), TOLERANCES["Re_tau"])]
    # The reference (dense near the wall) interpolated in log(y+) onto the run's own points: interpolating a uniform
    # run's few near-wall points onto the reference would add an error of its own.
    top = min(180.0, ref["y_plus"].max())
    pick = (run["y+"] >= 5) & (run["y+"] <= top)
    if not pick.any():
        raise EddyReadError(f"the run has no points with 5 <= y+ <= {top:.3g}")
    theirs = np.interp(np.log(run["y+"][pick]), np.log(ref["y_plus"][1:]), ref["U_plus"][1:])
    ours = run["U+"][pick]
    errors = np.abs(ours / theirs - 1)
    worst = int(np.argmax(errors))
    rows.append((f"U+ at y+ = {run['y+'][pick][worst]:.4g} (worst of {pick.sum()}, y+ 5..{top:.0f})",
                 ours[worst], theirs[worst], TOLERANCES["U+"]))
    for name, column in (("u_rms+", "uu_plus"), ("v_rms+", "vv_plus"), ("w_rms+", "ww_plus")):
        eddy = None if run[name] is None else run[name].max()
        rows.append((f"{name} peak", eddy, np.sqrt(ref[column].max()), TOLERANCES["peak"]))
    rows.append(("-uv+ peak", (-run["uv+"]).max(), (-ref["uv_plus"]).max(), TOLERANCES["peak"]))
    return [(q, e, r, None if e is None else abs(e / r - 1), t) for q, e, r, t in rows]


def print_table(rows, check):
    """Prints the comparison; returns the names of the failed rows (only with check)."""
    print(f"{'quantity':<44} {'eddy':>9} {'reference':>9} {'rel. err':>9}" + ("  tol  verdict" if check else ""))
    failed = []
    for quantity, eddy, reference, error, tolerance in rows:
        if eddy is None:
            print(f"{quantity:<44} {'absent':>9} {reference:9.4g} {'-':>9}" + ("    -  absent (2D)" if check else ""))
            continue
        line = f"{quantity:<44} {eddy:9.4g} {reference:9.4g} {100 * error:8.2f}%"
        if check:
            verdict = "PASS" if error <= tolerance else "FAIL"
            line += f" {100 * tolerance:3.0f}%  {verdict}"
            if verdict == "FAIL":
                failed.append(quantity.split()[0])
        print(line)
    return failed


def read_drive_history(run_dir, meta):
    """Re_tau against time from the driving pressure gradient G of a constant-flow-rate run (physics.csv), by the mean
    momentum balance u_tau^2 = G h: (times, re_tau), or None where the run has no such column."""
    path = os.path.join(run_dir, "physics.csv")
    if not os.path.isfile(path) or not isinstance(meta.get("half_height"), float):
        return None
    times, gradients = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("drive_pressure_gradient") in (None, ""):
                return None
            times.append(float(row["time"]))
            gradients.append(float(row["drive_pressure_gradient"]))
    if not times:
        return None
    h, nu = meta["half_height"], meta["viscosity"]
    return np.array(times), np.sqrt(np.abs(np.array(gradients)) * h) * h / nu


def plot_channel(run, ref, meta, title, ref_label, output, history=None):
    """Writes the figure: the two profile panels, and below them Re_tau against time where the run has a history."""
    if history is None:
        fig, (ax_u, ax_s) = plt.subplots(1, 2, figsize=(12, 5))
    else:
        fig = plt.figure(figsize=(12, 8))
        grid = fig.add_gridspec(2, 2, height_ratios=[5, 2.5])
        ax_u, ax_s, ax_t = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, :])
        times, re_tau = history
        ax_t.plot(times, re_tau, "-", color="C0", lw=0.8, label="eddy, from the driving pressure gradient G: "
                  "Re_tau = sqrt(G h) h / nu")
        ax_t.axhline(ref["y_plus"].max(), color="k", lw=0.8, ls="--", label=ref_label)
        ax_t.axvspan(meta.get("start_time", 0), meta.get("end_time", 0), color="0.85", label="averaging window")
        ax_t.set_xlabel("time t (T = h / U_b)")
        ax_t.set_ylabel("Re_tau")
        ax_t.set_title("friction Reynolds number during the run")
        ax_t.grid(True, alpha=0.3)
        ax_t.legend(fontsize=8)
    times = f"t = {meta.get('start_time', 0):.4g}..{meta.get('end_time', 0):.4g} T"
    wall = ref["y_plus"] > 0
    ax_u.semilogx(run["y+"], run["U+"], "-", color="C0", label=f"eddy, averaged over {times}")
    ax_u.semilogx(ref["y_plus"][wall], ref["U_plus"][wall], "o", mfc="none", color="k", ms=4, label=ref_label)
    sub = np.logspace(np.log10(0.04), np.log10(12), 40)
    ax_u.semilogx(sub, sub, "--", color="0.5", lw=0.8, label="viscous sublayer U+ = y+")
    log = np.logspace(np.log10(5), np.log10(max(run["Re_tau"], 200)), 40)
    ax_u.semilogx(log, np.log(log) / KAPPA + B, "-.", color="0.5", lw=0.8,
                  label=f"log law U+ = ln(y+) / {KAPPA} + {B}")
    ax_u.set_xlim(0.04, max(run["Re_tau"], ref["y_plus"].max()) * 1.2)
    ax_u.set_xlabel("y+ = y u_tau / nu (distance from the nearer wall, wall units)")
    ax_u.set_ylabel("U+ = U / u_tau")
    ax_u.set_title("mean streamwise velocity")
    curves = (("u_rms+", "uu_plus", "C0", "o"), ("v_rms+", "vv_plus", "C1", "s"), ("w_rms+", "ww_plus", "C2", "^"),
              ("-uv+", "uv_plus", "C3", "d"))
    for name, column, colour, marker in curves:
        if name == "-uv+":
            ours, theirs = -run["uv+"], -ref[column]
        else:
            ours, theirs = run[name], np.sqrt(ref[column])
        if ours is not None:
            ax_s.plot(run["y+"], ours, "-", color=colour, label=f"{name} eddy")
        absent = " (eddy: absent, 2D run)" if ours is None else ""
        ax_s.plot(ref["y_plus"], theirs, marker, color=colour, mfc="none", ms=4, label=f"{name} reference{absent}")
    ax_s.set_xlim(0, run["Re_tau"])
    ax_s.set_xlabel("y+ = y u_tau / nu (distance from the nearer wall, wall units)")
    ax_s.set_ylabel("u_rms+ = sqrt(<u'u'>) / u_tau (v, w alike)\n-<u'v'>+ = -<u'v'> / u_tau^2")
    ax_s.set_title("rms velocity fluctuations and Reynolds shear stress")
    for ax in (ax_u, ax_s):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    save_figure(fig, title, output)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", help="run folder (output.directory) holding statistics/profiles_NNNNNN.csv")
    parser.add_argument("--step", type=int, help="use the profiles of this step (default: the highest)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help="reference CSV (default: tests/regression/data/mkm1999_chan180.csv of this repository)")
    parser.add_argument("--check", action="store_true", help="exit 2 when Re_tau or U+ differ by more than 2%% or a "
                        "peak by more than 5%%")
    parser.add_argument("-o", "--output", help="PNG to write (default RUN_DIR/channel.png)")
    args = parser.parse_args()
    files = dict(profile_files(args.run_dir))
    step = max(files) if args.step is None else args.step
    if step not in files:
        raise EddyReadError(f"run folder '{args.run_dir}' has no profiles of step {step} "
                            f"(steps {', '.join(str(s) for s in sorted(files))})")
    meta, cols = read_profiles(files[step])
    run, ref = fold(files[step], meta, cols), read_reference(args.reference)
    ref_label = os.path.basename(args.reference)
    if ref_label.startswith("mkm1999"):
        ref_label = "Moser, Kim & Mansour (1999)"
    ref_label += f" Re_tau = {ref['y_plus'].max():.0f}"
    try:
        facts = read_deck_facts(args.run_dir)
    except (OSError, ValueError):
        facts = {"name": os.path.basename(os.path.abspath(args.run_dir)), "cells": None, "dimensions": None}
    title = facts["name"]
    if facts["cells"]:
        title += ": " + " x ".join(str(int(c)) for c in facts["cells"][:facts["dimensions"] or 3]) + " cells"
    title += f", Re_tau = {run['Re_tau']:.4g} (step {step}) vs {ref_label}"
    output = args.output or os.path.join(args.run_dir, "channel.png")
    history = read_drive_history(args.run_dir, meta)
    plot_channel(run, ref, meta, title, ref_label, output, history)
    facts = " ".join(f"{key} {meta[key]:g}" if isinstance(meta.get(key), float) else f"{key} ?"
                     for key in ("start_time", "end_time", "samples"))
    print(f"{output}\n{files[step]}: {len(cols['y'])} rows, {facts}; reference {ref_label}")
    failed = print_table(compare(run, ref), args.check)
    if history is not None:
        times, re_tau = history
        steps = np.diff(times, prepend=times[0])  # each row stands for its step
        window = (times > meta.get("start_time", 0)) & (times <= meta.get("end_time", 0)) & (steps > 0)
        if window.any():  # Re_tau^2 is proportional to G: its time mean gives that of G
            mean = np.sqrt(np.sum(re_tau[window] ** 2 * steps[window]) / np.sum(steps[window]))
            print(f"Re_tau from the driving pressure gradient averaged over the window: {mean:.4g}")
    if failed:
        print(f"error: {len(failed)} check(s) outside the tolerance: {', '.join(failed)}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    run_main(main)
