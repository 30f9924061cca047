#!/usr/bin/env python3
"""Plot the history of a run from telemetry.csv: kinetic energy, max divergence, Poisson iterations and residuals (the
last solve's final one and the step's largest initial guess's), and the time step, all against simulated time, into one
PNG."""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import numpy as np  # noqa: E402
from eddy_read import describe_run, read_deck_facts, read_telemetry, run_main, save_figure  # noqa: E402


def plot_history(run_dir, output):
    """Writes the history figure of `run_dir` to `output`. Units are the deck's: length L, time T."""
    t = read_telemetry(run_dir)
    facts = read_deck_facts(run_dir)
    time = t["time"]
    two_d = facts["dimensions"] == 2
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), sharex=True)
    axes[0, 0].plot(time, t["kinetic_energy"], label="eddy")
    if facts["initial"] == "taylor_green" and two_d and facts["viscosity"]:
        # The 2D Taylor-Green vortex sin x cos y decays exactly as exp(-4 nu t) (its nonlinear term is a gradient).
        exact = t["kinetic_energy"][0] * np.exp(-4 * facts["viscosity"] * (time - time[0]))
        axes[0, 0].plot(time, exact, "k--", label="exact, exp(-4 nu t)")
        axes[0, 0].legend()
    axes[0, 0].set_ylabel("kinetic energy per unit depth (L^4/T^2)" if two_d else "kinetic energy (L^5/T^2)")
    axes[0, 1].semilogy(time, abs(t["max_divergence"]) + 1e-300)
    axes[0, 1].set_ylabel("max |div u| after the projection (1/T)")
    axes[1, 0].plot(time, t["poisson_iterations"], color="C0")
    axes[1, 0].set_ylabel("pressure solver iterations a step", color="C0")
    residual = axes[1, 0].twinx()
    residual.semilogy(time, abs(t["poisson_residual"]) + 1e-300, color="C3", label="final")
    if "poisson_guess_residual" in t:  # runs of earlier versions lack it
        residual.semilogy(time, abs(t["poisson_guess_residual"]) + 1e-300, color="C3", linestyle=":",
                          label="initial guess")
        residual.legend(loc="upper right")
    residual.set_ylabel("relative residual", color="C3")
    axes[1, 1].plot(time, t["dt"])
    axes[1, 1].set_ylabel("time step dt (T)")
    for ax in axes[1]:
        ax.set_xlabel("time (T)")
    for ax in axes.flat:
        ax.grid(True, alpha=0.3)
    save_figure(fig, describe_run(facts), output)
    return output


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run_dir", help="run folder holding telemetry.csv")
    parser.add_argument("-o", "--output", help="PNG to write (default RUN_DIR/history.png)")
    args = parser.parse_args()
    print(plot_history(args.run_dir, args.output or os.path.join(args.run_dir, "history.png")))


if __name__ == "__main__":
    run_main(main)
