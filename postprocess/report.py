#!/usr/bin/env python3
"""Write one Markdown report of a run folder: summary.json as a table, the history plot, the last field snapshot
and (with --reference) the centreline profiles. Images go to RUN_DIR/report/, the text to RUN_DIR/report.md."""
import argparse
import os

from eddy_read import field_files, read_fields, read_summary, read_telemetry, run_main
from plot_fields import plot_fields
from plot_history import plot_history
from plot_profiles import plot_profiles


def flatten(prefix, value, rows):
    """Nested summary entries as (dotted key, value) rows."""
    if isinstance(value, dict):
        for key, item in value.items():
            flatten(f"{prefix}.{key}" if prefix else key, item, rows)
    else:
        rows.append((prefix, value))
    return rows


def write_report(run_dir, reference=None, reynolds=100.0):
    """Writes RUN_DIR/report.md and its images; returns the report's path."""
    images = os.path.join(run_dir, "report")
    os.makedirs(images, exist_ok=True)
    name = os.path.basename(os.path.abspath(run_dir))
    lines = [f"# eddy run: {name}", ""]
    if os.path.isfile(os.path.join(run_dir, "summary.json")):
        lines += ["## Summary", "", "| key | value |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in flatten("", read_summary(run_dir), [])]
        lines.append("")
    else:
        lines += ["No summary.json: the run has not finished (or was stopped before writing it).", ""]
    telemetry = read_telemetry(run_dir)
    lines += ["## History", "",
              f"{len(telemetry['step'])} steps to t = {telemetry['time'][-1]:.6g}; final kinetic energy "
              f"{telemetry['kinetic_energy'][-1]:.6g}, max divergence {telemetry['max_divergence'][-1]:.3g}.", ""]
    plot_history(run_dir, os.path.join(images, "history.png"))
    lines += ["![history](report/history.png)", ""]
    files = field_files(run_dir)
    last = read_fields(files[-1][1])
    plot_fields(files[-1][1], os.path.join(images, "fields.png"))
    lines += ["## Fields", "", f"{len(files)} outputs; the last, step {last['step']} at t = {last['time']:.6g}:", "",
              "![fields](report/fields.png)", ""]
    if reference:
        worst = plot_profiles(run_dir, reference, reynolds, os.path.join(images, "profiles.png"))
        lines += ["## Centreline profiles", "", f"Largest deviation from the reference (Re = {reynolds:g}): "
                  f"{worst:.4g} U.", "", "![profiles](report/profiles.png)", ""]
    path = os.path.join(run_dir, "report.md")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run_dir", help="run folder (output.directory)")
    parser.add_argument("--reference", help="reference CSV for centreline profiles (cavity runs)")
    parser.add_argument("--re", type=float, default=100, help="Reynolds number of the reference points (100)")
    args = parser.parse_args()
    print(write_report(args.run_dir, args.reference, args.re))


if __name__ == "__main__":
    run_main(main)
