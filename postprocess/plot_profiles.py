#!/usr/bin/env python3
"""Compare cavity centreline velocities with a reference (e.g. Ghia et al. 1982): u along the vertical centreline
and v along the horizontal one, in coordinates normalised by the domain (0..1). Writes a PNG and prints the largest
deviation at the reference points; with --tolerance the exit status is 2 when it is exceeded.

Reference CSV columns: quantity,Re,coord_name,coord,grid_index_129,coord_exact,value,status ('#' lines are
comments; points with status BOUNDARY are plotted but not compared)."""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from eddy_read import EddyReadError, describe_run, read_deck_facts, read_fields, run_main, save_figure  # noqa: E402
from plot_fields import pick_file  # noqa: E402


def read_reference(path, reynolds):
    """Reference points of one Reynolds number: {'u': [(coord, value, status)], 'v': [...]}."""
    if not os.path.isfile(path):
        raise EddyReadError(f"reference file '{path}' does not exist")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    needed = {"quantity", "Re", "coord_exact", "value", "status"}
    if not rows or not needed <= set(rows[0]):
        raise EddyReadError(f"'{path}' lacks the columns {sorted(needed)}")
    points = {"u": [], "v": []}
    for row in rows:
        if float(row["Re"]) == reynolds and row["quantity"] in points:
            points[row["quantity"]].append((float(row["coord_exact"]), float(row["value"]), row["status"]))
    if not points["u"] and not points["v"]:
        available = sorted({row["Re"] for row in rows})
        raise EddyReadError(f"'{path}' has no points for Re = {reynolds:g} (it has Re {', '.join(available)})")
    return points


def reference_name(path):
    """The authors and year of a reference file, from its first comment line ('# Ghia, U., ... (1982), ...'):
    'Ghia et al. (1982)'; the file's name where it has none."""
    with open(path) as f:
        first = f.readline()
    found = re.match(r"#\s*([A-Z][A-Za-z-]+),.*?\((\d{4})\)", first)
    return f"{found.group(1)} et al. ({found.group(2)})" if found else os.path.basename(path)


def centreline_profiles(f):
    """u(y) on the vertical centreline and v(x) on the horizontal one (middle z layer), normalised coordinates."""
    k = f["cells"][2] // 2
    velocity = f["velocity"][k]
    x_norm = (f["x"] - f["origin"][0]) / (f["cells"][0] * f["spacing"][0])
    y_norm = (f["y"] - f["origin"][1]) / (f["cells"][1] * f["spacing"][1])
    u_line = np.array([np.interp(0.5, x_norm, velocity[j, :, 0]) for j in range(f["cells"][1])])
    v_line = np.array([np.interp(0.5, y_norm, velocity[:, i, 1]) for i in range(f["cells"][0])])
    return (y_norm, u_line), (x_norm, v_line)


def plot_profiles(source, reference, reynolds, output, lid_speed=1.0):
    """Writes the comparison figure; returns the largest |simulated - reference| / lid_speed at compared points."""
    f = read_fields(pick_file(source))
    if "velocity" not in f:
        raise EddyReadError(f"'{f['path']}' has no /velocity; add it to output.fields")
    points = read_reference(reference, reynolds)
    (y, u_line), (x, v_line) = centreline_profiles(f)
    worst = 0.0
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, name, coord, line in ((axes[0], "u", y, u_line), (axes[1], "v", x, v_line)):
        ax.plot(coord, line / lid_speed, label=f"eddy, t = {f['time']:.4g} T")
        if points[name]:
            ref = np.array([(c, v) for c, v, _ in points[name]])
            ax.plot(ref[:, 0], ref[:, 1], "o", mfc="none", label=f"{reference_name(reference)}, Re = {reynolds:g}")
            for c, v, status in points[name]:
                if status != "BOUNDARY":
                    worst = max(worst, abs(np.interp(c, coord, line) / lid_speed - v))
        ax.set_xlabel("y / L" if name == "u" else "x / L")
        ax.set_ylabel(f"{name} / U")
        ax.set_title(f"{name} on the {'vertical' if name == 'u' else 'horizontal'} centreline")
        ax.grid(True, alpha=0.3)
        ax.legend()
    save_figure(fig, describe_run(read_deck_facts(os.path.dirname(os.path.abspath(f["path"])))), output)
    return worst


def run_reynolds(run_dir, lid_speed):
    """U L / nu of the run (L: the x length), rounded to an integer; 100 where its deck.yaml does not say."""
    facts = read_deck_facts(run_dir)
    if not facts["viscosity"] or not facts["length"]:
        return 100.0
    return float(round(lid_speed * facts["length"][0] / facts["viscosity"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="run folder (last output is used) or a fields_NNNNNN.h5 file")
    parser.add_argument("--reference", required=True, help="reference CSV (e.g. ghia1982_re100_re1000.csv)")
    parser.add_argument("--re", type=float, help="Reynolds number of the reference points (default: the run's "
                        "U L / nu from its deck.yaml, else 100)")
    parser.add_argument("--lid-speed", type=float, default=1.0, help="lid velocity U used to normalise (1)")
    parser.add_argument("--tolerance", type=float, help="fail (exit 2) when max deviation / U exceeds this")
    parser.add_argument("-o", "--output", help="PNG to write (default profiles.png next to the data)")
    args = parser.parse_args()
    folder = args.source if os.path.isdir(args.source) else os.path.dirname(args.source)
    output = args.output or os.path.join(folder, "profiles.png")
    reynolds = args.re if args.re is not None else run_reynolds(folder, args.lid_speed)
    worst = plot_profiles(args.source, args.reference, reynolds, output, args.lid_speed)
    print(f"{output}\nmax deviation from the reference: {worst:.4g} U")
    if args.tolerance is not None and worst > args.tolerance:
        print(f"error: deviation {worst:.4g} exceeds the tolerance {args.tolerance:g}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    run_main(main)
