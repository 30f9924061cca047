#!/usr/bin/env python3
"""Readers for eddy's run folder: fields_NNNNNN.h5 (cell-centred fields), telemetry.csv, summary.json.

Used by the other postprocess scripts and by the tests; every reader raises EddyReadError with a message that
names the file and what is wrong with it.
"""
import csv
import glob
import json
import os
import re

import numpy as np


class EddyReadError(Exception):
    """A run-folder file is missing or not what eddy writes."""


def _h5py():
    try:
        import h5py
    except ImportError as error:  # pragma: no cover - environment problem
        raise EddyReadError("h5py is not installed (python3 -m pip install h5py, or apt install python3-h5py)") from error
    return h5py


def numbered_files(folder, stem, extension):
    """The files `stem`_NNNNNN`extension` of a folder, sorted by their number: list of (number, path)."""
    found = []
    for path in glob.glob(os.path.join(folder, f"{stem}_*{extension}")):
        match = re.fullmatch(re.escape(stem) + r"_(\d+)" + re.escape(extension), os.path.basename(path))
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def field_files(run_dir):
    """Field files of a run folder, sorted by step: list of (step, path)."""
    if not os.path.isdir(run_dir):
        raise EddyReadError(f"run folder '{run_dir}' does not exist")
    found = numbered_files(run_dir, "fields", ".h5")
    if not found:
        raise EddyReadError(f"run folder '{run_dir}' holds no field output (fields_NNNNNN.h5); "
                            "set output.interval_steps or output.interval_time")
    return found


def read_fields(path):
    """One field file as a dict: time, step, dimensions, cells (nx, ny, nz), origin, spacing (the mean on a stretched
    axis), x, y, z (cell centres), x_faces, y_faces, z_faces (cells + 1 face coordinates), stretched (True where any
    axis is) and every dataset as a numpy array indexed [k, j, i(, component)], by name in arrays and (where the name
    is none of the keys above) at the top level."""
    h5py = _h5py()
    if not os.path.isfile(path):
        raise EddyReadError(f"field file '{path}' does not exist")
    try:
        with h5py.File(path, "r") as f:
            out = {"path": path}
            for key in ("time", "step", "dimensions", "cells", "origin", "spacing"):
                if key not in f.attrs:
                    raise EddyReadError(f"'{path}' has no attribute '{key}': not an eddy field file")
                out[key] = f.attrs[key]
            out["cells"] = [int(c) for c in out["cells"]]
            for a, axis in enumerate("xyz"):
                key = axis + "_faces"
                if key in f.attrs:
                    out[key] = np.asarray(f.attrs[key], dtype=float)
            out["arrays"] = {name: f[name][...] for name in f.keys()}
    except OSError as error:
        raise EddyReadError(f"cannot read '{path}' as HDF5 (truncated or still being written?): {error}") from error
    out["stretched"] = any(axis + "_faces" in out for axis in "xyz")
    for a, axis in enumerate("xyz"):
        key = axis + "_faces"
        if key not in out:  # a uniform axis
            out[key] = out["origin"][a] + np.arange(out["cells"][a] + 1) * out["spacing"][a]
            out[axis] = out["origin"][a] + (np.arange(out["cells"][a]) + 0.5) * out["spacing"][a]
        else:
            out[axis] = 0.5 * (out[key][1:] + out[key][:-1])
    for name, data in out["arrays"].items():
        out.setdefault(name, data)
    return out


def read_telemetry(run_dir_or_file):
    """telemetry.csv as a dict of numpy columns; rows repeated after a restart keep their latest value."""
    path = run_dir_or_file
    if os.path.isdir(path):
        path = os.path.join(path, "telemetry.csv")
    if not os.path.isfile(path):
        raise EddyReadError(f"telemetry file '{path}' does not exist")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0] or rows[0][0] != "step":
        raise EddyReadError(f"'{path}' is not an eddy telemetry file (its first line should start with 'step')")
    header, latest = rows[0], {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            if number == len(rows):  # a last line being written right now
                continue
            raise EddyReadError(f"'{path}' line {number}: {len(row)} values for {len(header)} columns")
        latest[int(row[0])] = row
    ordered = [latest[s] for s in sorted(latest)]
    columns = {}
    for c, name in enumerate(header):
        columns[name] = np.array([float(r[c]) for r in ordered])
    return columns


def read_summary(run_dir_or_file):
    """summary.json as a dict."""
    path = run_dir_or_file
    if os.path.isdir(path):
        path = os.path.join(path, "summary.json")
    if not os.path.isfile(path):
        raise EddyReadError(f"summary file '{path}' does not exist (the run may not have finished)")
    try:
        with open(path) as f:
            return json.load(f)
    except json.JSONDecodeError as error:
        raise EddyReadError(f"'{path}' is not valid JSON: {error}") from error


def read_deck_facts(run_dir):
    """What a figure's title needs from the run's resolved deck.yaml: name, dimensions, cells, lengths, viscosity,
    initial type and the lid speed of a moving wall (None where the deck lacks it). No YAML library is needed: eddy
    writes every key on a line of its own."""
    facts = {"name": os.path.basename(os.path.abspath(run_dir)), "dimensions": None, "cells": None, "length": None,
             "viscosity": None, "initial": None, "wall_speed": None, "rayleigh": None, "prandtl": None}
    path = os.path.join(run_dir, "deck.yaml")
    if not os.path.isfile(path):
        return facts
    section = ""
    with open(path) as f:
        for line in f:
            if not line.startswith(" ") and line.rstrip().endswith(":"):
                section = line.strip()[:-1]
            key, _, value = line.strip().partition(": ")
            value = value.strip()
            if line.startswith("name: "):
                facts["name"] = value.strip("'\"")
            elif section == "domain" and key in ("dimensions",):
                facts["dimensions"] = int(value)
            elif section == "domain" and key in ("cells", "length"):
                facts[key] = [float(v) for v in value.strip("[]").split(",")]
            elif section == "physics" and key in ("viscosity", "rayleigh", "prandtl"):
                facts[key] = float(value)
            elif section == "initial" and key == "type":
                facts["initial"] = value
            elif section == "boundary" and "moving_wall" in value:
                speed = re.search(r"velocity: \[([^\]]*)\]", value)
                if speed:
                    facts["wall_speed"] = max(abs(float(v)) for v in speed.group(1).split(","))
    return facts


def describe_run(facts):
    """'cavity2d_re100: 64 x 64 cells, Re = 100' (Re from a moving wall's speed and the box where it has one), or the
    viscosity, or Ra and Pr."""
    text = facts["name"]
    if facts["cells"]:
        dims = facts["dimensions"] or len(facts["cells"])
        text += ": " + " x ".join(str(int(c)) for c in facts["cells"][:dims]) + " cells"
    if facts["rayleigh"]:
        text += f", Ra = {facts['rayleigh']:.3g}, Pr = {facts['prandtl']:.3g}"
    elif facts["viscosity"] and facts["wall_speed"] and facts["length"]:
        text += f", Re = {facts['wall_speed'] * facts['length'][0] / facts['viscosity']:.4g}"
    elif facts["viscosity"]:
        text += f", nu = {facts['viscosity']:.3g}"
    return text


def save_figure(fig, title, output, dpi=100):
    """Finishes a matplotlib figure the one way every script does: its title (None: none), a tight layout, the PNG
    written to `output`, the figure closed."""
    import matplotlib.pyplot as plt

    if title is not None:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(output, dpi=dpi)
    plt.close(fig)


def run_main(main):
    """Runs a script's main, printing EddyReadError as one line and exiting with status 1."""
    import sys
    try:
        main()
    except EddyReadError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Print what an eddy run folder holds.")
    parser.add_argument("run_dir", help="run folder (output.directory)")
    args = parser.parse_args()

    def main():
        for step, path in field_files(args.run_dir):
            fields = read_fields(path)
            names = sorted(fields["arrays"])
            print(f"step {step}: t = {fields['time']:.6g}, arrays {', '.join(names)}")

    run_main(main)
