#!/usr/bin/env python3
"""Write one Markdown report of a run folder: the run's totals, phases and verdict from summary.json, the history plot, the last field snapshot
and (with --reference) the centreline profiles. Images go to RUN_DIR/report/, the text to RUN_DIR/report.md."""
import argparse
import os

from eddy_read import describe_run, field_files, read_deck_facts, read_fields, read_summary, read_telemetry, run_main
from plot_fields import plot_fields
from plot_history import plot_history
from plot_profiles import plot_profiles, reference_name


def number(value):
    """A summary value for a reader: four significant digits, integers whole, shares as percentages elsewhere."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.4g}"


def summary_lines(summary):
    """The run's totals as a short table, its phases as a second one, and its verdict."""
    rows = [("steps", summary.get("steps")), ("ranks", summary.get("ranks")), ("cells", summary.get("cells")),
            ("wall time (s)", summary.get("wall_seconds")), ("time per step (ms)", 1e3 * summary.get("seconds_per_step", 0)),
            ("cell updates per second", summary.get("cell_updates_per_second")),
            ("pressure solver iterations a step", summary.get("poisson_iterations_per_step")),
            ("communication share", f"{100 * summary.get('communication_share', 0):.1f} %"),
            ("device", summary.get("device")), ("stop reason", summary.get("stop_reason")),
            ("final time", summary.get("final_time"))]
    lines = ["| quantity | value |", "|---|---|"] + [f"| {k} | {number(v)} |" for k, v in rows if v is not None]
    shares = summary.get("phase_share", {})
    if shares:
        lines += ["", "| phase | share of the run |", "|---|---|"]
        lines += [f"| {phase} | {100 * share:.1f} % |" for phase, share in shares.items() if share >= 0.0005]
    if summary.get("scaling_verdict"):
        lines += ["", f"Scaling: {summary['scaling_verdict']}"]
    return lines + [""]


def write_report(run_dir, reference=None, reynolds=100.0):
    """Writes RUN_DIR/report.md and its images; returns the report's path."""
    images = os.path.join(run_dir, "report")
    os.makedirs(images, exist_ok=True)
    lines = [f"# eddy run {describe_run(read_deck_facts(run_dir))}", ""]
    if os.path.isfile(os.path.join(run_dir, "summary.json")):
        lines += ["## Summary", ""] + summary_lines(read_summary(run_dir))
    else:
        lines += ["No summary.json: the run has not finished (or was stopped before writing it).", ""]
    telemetry = read_telemetry(run_dir)
    lines += ["## History", "",
              f"{len(telemetry['step'])} steps to t = {telemetry['time'][-1]:.4g}; final kinetic energy "
              f"{telemetry['kinetic_energy'][-1]:.4g}, max divergence {telemetry['max_divergence'][-1]:.3g}.", ""]
    plot_history(run_dir, os.path.join(images, "history.png"))
    lines += ["![history](report/history.png)", ""]
    files = field_files(run_dir)
    last = read_fields(files[-1][1])
    plot_fields(files[-1][1], os.path.join(images, "fields.png"))
    lines += ["## Fields", "", f"{len(files)} outputs; the last, step {last['step']} at t = {last['time']:.4g}:", "",
              "![fields](report/fields.png)", ""]
    if reference:
        worst = plot_profiles(run_dir, reference, reynolds, os.path.join(images, "profiles.png"))
        lines += ["## Centreline profiles", "", f"Largest deviation from {reference_name(reference)} (Re = {reynolds:g}): "
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
