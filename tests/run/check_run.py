#!/usr/bin/env python3
"""End-to-end checks of `eddy run` as a user runs it: the run folder, refusal to overwrite, stop by signal or STOP
file and restart with the printed command, divergence, a truncated checkpoint, and the postprocess scripts on real
output. Usage: check_run.py CHECK --eddy EDDY --mpiexec "mpirun -np" --work DIR  (CHECK: see CHECKS below)."""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
POSTPROCESS = HERE.parent.parent / "postprocess"
# The timed phases of a step (summary.json phase_seconds, telemetry.csv <phase>_seconds), in order.
PHASES = ["advance", "boundary", "halo", "poisson", "poisson_halo", "poisson_reduction", "projection", "reduction",
          "output"]
# A small cavity: 16 x 16 cells, a few dozen steps.
SMALL = ["--set", "domain.cells=[16,16]", "--set", "output.log_interval=5", "--set", "pressure.rtol=1e-10"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message, flush=True)


def launch(ranks):
    """The command prefix for `ranks` ranks; one rank runs eddy directly, so signals reach it unchanged."""
    return [] if ranks == 1 else shlex.split(ARGS.mpiexec) + [str(ranks)]


def eddy(args, ranks=1, **kwargs):
    command = launch(ranks) + [ARGS.eddy, "run"] + args
    print("$", shlex.join(command), flush=True)
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)


def bench(args, ranks=1):
    command = launch(ranks) + [ARGS.eddy, "bench"] + args
    print("$", shlex.join(command), flush=True)
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def terminal(result):
    """What the user sees. Under mpirun a rank's stderr can arrive partly on the launcher's stdout (seen with Open MPI
    5 under load), so messages are looked for in both streams."""
    return result.stdout + result.stderr


def show(result):
    print(result.stdout[-3000:] + result.stderr[-3000:], flush=True)


def digest(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def check_outputs(work):
    """A small run writes fields, XDMF, telemetry, summary and checkpoints; a second run into it is refused."""
    run = work / "cavity"
    args = SMALL + ["--set", f"output.directory={run}", "--set", "time.max_steps=12", "--set",
                    "output.interval_steps=4", "--set", "output.checkpoint_interval_steps=6"]
    result = eddy(args, ranks=2)
    show(result)
    check(result.returncode == 0, f"run exit {result.returncode}")
    for name in ["deck.yaml", "fields.xmf", "telemetry.csv", "summary.json", "fields_000000.h5", "fields_000004.h5",
                 "fields_000012.h5", "checkpoints/checkpoint_000006.h5", "checkpoints/checkpoint_000012.h5"]:
        check((run / name).is_file(), f"missing {name}")
    rows = (run / "telemetry.csv").read_text().splitlines()
    check(len(rows) == 13 and rows[0].startswith("step,time,dt"), f"telemetry rows {len(rows)}")
    check_telemetry_phases(rows)
    summary = json.loads((run / "summary.json").read_text())
    for key in ["case", "ranks", "cells", "local_cells_max", "steps", "wall_seconds", "seconds_per_step",
                "cell_updates_per_second", "cell_updates_per_second_per_rank", "phase_seconds", "phase_share",
                "communication_share", "poisson_solve_share", "poisson_communication_share",
                "poisson_communication_timing", "halo_backend", "reduction_backend", "device", "phase_timing",
                "poisson_iterations_per_step", "plan"]:
        check(key in summary, f"summary.json lacks {key}")
    check(summary.get("ranks") == 2 and summary.get("cells") == 256 and summary.get("steps") == 12,
          f"summary ranks/cells/steps {summary.get('ranks')} {summary.get('cells')} {summary.get('steps')}")
    check(summary.get("local_cells_max") == 128, f"local_cells_max {summary.get('local_cells_max')}")
    check(abs(sum(summary["phase_share"].values()) - 1) < 0.2, f"phase shares {summary['phase_share']}")
    check(summary["phase_timing"] == "exact", f"phase_timing {summary['phase_timing']} by default")
    plan = summary["plan"]
    check(plan.get("halo_transport") == summary["halo_backend"] and plan.get("pair_planes") == 8 and
          plan.get("hdf5_writes") in ("collective", "token_passing") and plan.get("kernel_forms"), f"plan {plan}")
    check_communication_shares(summary)
    header = rows[0].split(",")
    iterations = [float(row.split(",")[header.index("poisson_iterations")]) for row in rows[1:]]
    mean_iterations = sum(iterations) / len(iterations)
    check(mean_iterations > 0 and abs(summary["poisson_iterations_per_step"] - mean_iterations) < 1e-9,
          f"summary's poisson_iterations_per_step {summary['poisson_iterations_per_step']} is not the telemetry's mean "
          f"{mean_iterations}")
    check(f"{mean_iterations:.2f} multigrid iterations a step" in result.stdout,
          "the run summary does not give the pressure solver's iterations a step")
    check("scaling:" in result.stdout, "no scaling verdict printed with 2 ranks")
    # Several levels on CPUs; on GPUs the device's bottom solve takes this small grid whole ("1 level of 16 x 16 x 1").
    check(re.search(r"multigrid, rtol \S+; (\d+ levels to|1 level of) \d+ x \d+ x \d+", result.stdout) is not None,
          "the startup line does not describe the multigrid hierarchy")
    check("pressure solve" in result.stdout and "poisson_reduction" in result.stdout,
          "the run summary does not split the pressure solve")
    before = digest(run)
    again = eddy(args, ranks=2)
    show(again)
    check(again.returncode != 0, "a second run into the same folder was not refused")
    check("already holds results of an earlier run" in terminal(again), "refusal message")
    check("tuning plan" not in terminal(again), "a refused run printed its startup block before the refusal")
    check(digest(run) == before, "the refused run changed the earlier results")
    host = work / "cavity-host-timed"
    timed = eddy(SMALL + ["--set", f"output.directory={host}", "--set", "time.max_steps=3", "--set",
                          "output.exact_phase_times=false"], ranks=1)
    show(timed)
    check(timed.returncode == 0, f"host-timed run exit {timed.returncode}")
    check(json.loads((host / "summary.json").read_text()).get("phase_timing") == "host_only",
          "summary.json of a run with output.exact_phase_times false")
    check("phase times are the host's" in timed.stdout, "no note that the phase times are the host's")


def check_kernel_times(work):
    """`eddy run --kernel-times` lists rank 0's kernels after the summary and in summary.json, within the run's time."""
    run = work / "cavity-kernel-times"
    result = eddy(SMALL + ["--set", f"output.directory={run}", "--set", "time.max_steps=4", "--kernel-times"], ranks=2)
    show(result)
    check(result.returncode == 0, f"run --kernel-times exit {result.returncode}")
    check("kernels of rank 0" in result.stdout, "no kernel table printed")
    summary = json.loads((run / "summary.json").read_text())
    seconds, launches = summary.get("kernel_seconds", {}), summary.get("kernel_launches", {})
    check(set(seconds) == set(launches) and len(seconds) > 5, f"kernel labels {sorted(seconds)}")
    stage = [label for label in launches if label.startswith("rk::momentum_stage")]
    check(len(stage) == 1 and launches[stage[0]] == 3 * 4, f"momentum stage launches {[launches[s] for s in stage]}")
    check(all(t >= 0 for t in seconds.values()), "a negative kernel time")
    check(0 < sum(seconds.values()) <= summary["wall_seconds"],
          f"kernel time {sum(seconds.values())} against the run's {summary['wall_seconds']} s")
    slowest = summary.get("kernel_seconds_slowest_rank", {})
    check(set(slowest) == set(seconds) and all(slowest[k] >= seconds[k] for k in seconds),
          "kernel_seconds_slowest_rank lacks labels or lies below rank 0's times")
    check("slowest rank" in result.stdout, "no slowest-rank column in the kernel table of a 2-rank run")
    untimed = work / "cavity-untimed-kernels"
    plain = eddy(SMALL + ["--set", f"output.directory={untimed}", "--set", "time.max_steps=1"])
    check(plain.returncode == 0, f"run without --kernel-times exit {plain.returncode}")
    check(plain.returncode == 0 and "kernel_seconds" not in json.loads((untimed / "summary.json").read_text()),
          "kernel times in the summary of a run without --kernel-times")


def check_telemetry_phases(rows):
    """Every phase has a telemetry column; no step has a negative phase time; the solve communicated on 2 ranks."""
    header = rows[0].split(",")
    check([c for c in header if c.endswith("_seconds") and c != "wall_seconds"] == [f"{p}_seconds" for p in PHASES],
          f"telemetry phase columns {header}")
    table = [[float(v) for v in row.split(",")] for row in rows[1:]]
    for phase in PHASES:
        column = [row[header.index(f"{phase}_seconds")] for row in table]
        check(min(column) >= 0, f"telemetry: negative {phase}_seconds {min(column)}")
    for phase in ["poisson_halo", "poisson_reduction"]:
        check(sum(row[header.index(f"{phase}_seconds")] for row in table) > 0, f"telemetry: no {phase} time")
    for row in table:
        timed = sum(row[header.index(f"{p}_seconds")] for p in PHASES)
        wall = row[header.index("wall_seconds")]
        check(timed <= wall * 1.001 + 1e-6, f"telemetry step {row[0]:.0f}: phases {timed} exceed the step {wall}")


def check_communication_shares(summary):
    """The pressure solve's communication is split out, non-negative, non-zero on 2 ranks, and the totals add up."""
    shares = summary["phase_share"]
    check(sorted(shares) == sorted(PHASES) and sorted(summary["phase_seconds"]) == sorted(PHASES),
          f"summary phases {sorted(shares)}")
    check(all(v >= 0 for v in shares.values()), f"negative phase share {shares}")
    check(summary["phase_seconds"]["poisson_halo"] > 0 and summary["phase_seconds"]["poisson_reduction"] > 0,
          f"no pressure-solve communication on 2 ranks: {summary['phase_seconds']}")
    close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))  # noqa: E731
    communication = shares["halo"] + shares["reduction"] + shares["poisson_halo"] + shares["poisson_reduction"]
    check(close(summary["communication_share"], communication),
          f"communication_share {summary['communication_share']} != sum of the four shares {communication}")
    solver = shares["poisson_halo"] + shares["poisson_reduction"]
    check(close(summary["poisson_communication_share"], solver), "poisson_communication_share")
    check(close(summary["poisson_solve_share"], shares["poisson"] + solver), "poisson_solve_share")
    check(summary["poisson_communication_share"] < summary["communication_share"] <= 1,
          f"communication {summary['communication_share']}, of it the solve's {summary['poisson_communication_share']}")
    check(summary["poisson_communication_timing"] in ("measured", "reductions_enqueue_only", "enqueue_only"),
          f"poisson_communication_timing {summary['poisson_communication_timing']}")


def stop_and_restart(work, name, ranks, stop):
    """Starts a long run, stops it with `stop`, checks exit 75 and the restart hint, runs the printed command."""
    run = work / name
    # Long enough (1000 steps) that the stop always lands mid-run, however fast the machine.
    total_steps, dt = 1000, 0.005
    args = SMALL + ["--set", f"output.directory={run}", "--set", f"time.end_time={total_steps * dt}", "--set",
                    f"time.dt={dt}"]
    command = launch(ranks) + [ARGS.eddy, "run"] + args
    print("$", shlex.join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    telemetry = run / "telemetry.csv"
    deadline = time.time() + 120
    while time.time() < deadline and (not telemetry.is_file() or len(telemetry.read_text().splitlines()) < 4):
        if process.poll() is not None:  # ended (or failed to start) before it could be stopped
            out, err = process.communicate()
            print(out[-2000:], err[-2000:], flush=True)
            check(False, f"{name}: the run ended with exit {process.returncode} before it could be stopped")
            return
        time.sleep(0.05)
    stop(process, run)
    out, err = process.communicate(timeout=120)
    print(out[-2000:], err[-2000:], flush=True)
    check(process.returncode == 75, f"{name}: stopped run exit {process.returncode} (expected 75)")
    hint = [line for line in out.splitlines() if "--restart latest" in line]
    check(len(hint) == 1, f"{name}: no restart hint")
    if not hint:
        return
    resume = hint[0].split("Continue with: ")[1].split()
    check(resume[:2] == ["eddy", "run"], f"{name}: hint {resume}")
    checkpoints = sorted((run / "checkpoints").glob("checkpoint_*.h5"))
    check(len(checkpoints) >= 1, f"{name}: no checkpoint written on stop")
    stopped_step = int(checkpoints[-1].stem.split("_")[1])
    check(0 < stopped_step < total_steps, f"{name}: stopped at step {stopped_step}")
    result = subprocess.run(launch(ranks) + [ARGS.eddy] + resume[1:], capture_output=True, text=True, timeout=300)
    show(result)
    check(result.returncode == 0, f"{name}: restart exit {result.returncode}")
    summary = json.loads((run / "summary.json").read_text())
    check(abs(summary["final_time"] - total_steps * dt) < 1e-9, f"{name}: final time {summary['final_time']}")
    check(summary["final_step"] == total_steps and summary["steps"] == total_steps - stopped_step,
          f"{name}: steps {summary['steps']} final {summary['final_step']} after stop at {stopped_step}")
    steps = [int(line.split(",")[0]) for line in (run / "telemetry.csv").read_text().splitlines()[1:]]
    check(steps == list(range(1, total_steps + 1)), f"{name}: telemetry steps are not 1..{total_steps} once each")


def rank_processes(launcher):
    """The eddy processes the launcher started (its descendants of eddy's name), from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        parents[int(stat.parent.name)] = (int(rest[1]), name)
    def descends(pid):
        while pid in parents and pid > 1:
            pid = parents[pid][0]
            if pid == launcher.pid:
                return True
        return False
    name = Path(ARGS.eddy).name[:15]
    return [pid for pid, (_, comm) in parents.items() if comm == name and descends(pid)]


def signal_ranks(launcher, number):
    """Signals every rank, as batch systems do (Slurm signals each task): not every mpirun forwards SIGUSR1 (Open MPI
    4.1.6 does not)."""
    ranks = rank_processes(launcher)
    check(len(ranks) == 2, f"ranks found under the launcher: {ranks}")
    for pid in ranks:
        os.kill(pid, number)


def check_signal(work):
    """SIGTERM to a single-rank run and SIGUSR1 to each rank of a two-rank run; a STOP file on two ranks."""
    stop_and_restart(work, "sigterm", 1, lambda p, run: p.send_signal(signal.SIGTERM))
    stop_and_restart(work, "sigusr1", 2, lambda p, run: signal_ranks(p, signal.SIGUSR1))
    stop_and_restart(work, "stopfile", 2, lambda p, run: (run / "STOP").touch())


def check_diverged(work):
    """A fixed step far above the stability limit: a clear message, exit 3, the last good state on disk, holding
    exactly the state a run stopped at that step writes (2D cavity; 3D Taylor-Green, whose w is kept too)."""
    cavity = SMALL + ["--set", "time.dt=0.2"]
    vortex = [str(HERE.parent.parent / "inputs" / "taylor_green3d_re1600.yaml"), "--set", "domain.cells=[16,16,16]",
              "--set", "time.dt=1.0", "--set", "output.interval_steps=0", "--set", "output.log_interval=5"]
    for name, args in (("diverged", cavity), ("diverged3d", vortex)):
        run = work / name
        result = eddy(args + ["--set", f"output.directory={run}"], ranks=2)
        show(result)
        check(result.returncode == 3, f"{name}: diverged run exit {result.returncode} (expected 3)")
        message = terminal(result)
        check("eddy: error: the run" in message and "at step" in message, f"{name}: message names no step")
        check(any(q in message for q in ("Courant number", "non-finite u", "non-finite v", "non-finite w",
                                         "non-finite p", "div u")), f"{name}: message names no quantity")
        check("last good state (step" in message, f"{name}: no last good state named")
        good = sorted((run / "checkpoints").glob("checkpoint_*.h5"))
        check(len(good) == 1, f"{name}: last good checkpoint: {good}")
        summary = json.loads((run / "summary.json").read_text())
        check(summary["stop_reason"] == "diverged", f"{name}: stop_reason {summary['stop_reason']}")
        if len(good) == 1:
            check_last_good_state(work / (name + "_stopped"), args, good[0])


def check_last_good_state(run, args, good):
    """The last good checkpoint of step N equals, value for value, the final checkpoint of the same run stopped after
    N steps (the step after N started from that state)."""
    import h5py
    import numpy as np
    step = int(good.stem.split("_")[1])
    if step == 0:
        check(False, f"{good}: diverged in the first step; no stopped run to compare with")
        return
    result = eddy(args + ["--set", f"output.directory={run}", "--set", f"time.max_steps={step}"], ranks=2)
    check(result.returncode == 0, f"run stopped at step {step}: exit {result.returncode}")
    stopped = run / "checkpoints" / good.name
    check(stopped.is_file(), f"no {stopped}")
    if not stopped.is_file():
        return
    with h5py.File(good, "r") as a, h5py.File(stopped, "r") as b:
        for field in ("u", "v", "w", "p"):
            same = np.array_equal(a[field][...], b[field][...])
            check(same, f"{good}: {field} differs from the state of the run stopped at step {step}")


def check_truncated(work):
    """A truncated checkpoint is refused by --restart with a message that names it."""
    run = work / "truncated"
    result = eddy(SMALL + ["--set", f"output.directory={run}", "--set", "time.max_steps=3"])
    check(result.returncode == 0, f"run exit {result.returncode}")
    checkpoint = run / "checkpoints" / "checkpoint_000003.h5"
    broken = run / "broken.h5"
    data = checkpoint.read_bytes()
    broken.write_bytes(data[: len(data) // 2])
    again = eddy(SMALL + ["--set", f"output.directory={run}", "--set", "time.max_steps=6", "--restart", str(broken)],
                 ranks=2)
    show(again)
    check(again.returncode not in (0, 75), f"restart from a truncated checkpoint exit {again.returncode}")
    message = terminal(again)
    check("broken.h5" in message and "eddy: error:" in message, "message does not name the checkpoint")
    check("Traceback" not in message and "HDF5-DIAG" not in message, "raw library output in the message")


def check_postprocess(work):
    """A real cavity run read by h5py (the io checks' conventions) and by every postprocess script."""
    import h5py
    import numpy as np
    import xml.etree.ElementTree as ET
    run = work / "postprocess"
    result = eddy(SMALL + ["--set", f"output.directory={run}", "--set", "time.max_steps=20", "--set",
                           "output.interval_steps=10"], ranks=2)
    check(result.returncode == 0, f"run exit {result.returncode}")
    grids = ET.parse(run / "fields.xmf").getroot().findall("./Domain/Grid/Grid")
    times = [float(g.find("Time").get("Value")) for g in grids]
    check(len(times) == 3 and times[0] == 0 and times == sorted(times), f"XDMF times {times}")
    with h5py.File(run / "fields_000020.h5", "r") as f:
        check(f.attrs["step"] == 20, "step attribute")
        check(abs(f.attrs["time"] - times[-1]) < 1e-12, "time attribute vs XDMF")
        velocity = f["velocity"][...]
        check(velocity.shape == (1, 16, 16, 3), f"velocity shape {velocity.shape}")
        check(np.all(np.isfinite(velocity)) and np.all(np.isfinite(f["pressure"][...])), "non-finite output")
        # The lid drags the top row along (+x), the bottom row barely moves.
        check(velocity[0, -1, :, 0].mean() > 5 * abs(velocity[0, 0, :, 0]).mean(), "no lid-driven flow")
        # Every dataset says what it holds, its units and where it lives; the 2D vorticity is the signed omega_z.
        for name in ("velocity", "pressure", "vorticity"):
            attrs = {key: f[name].attrs[key] for key in f[name].attrs}
            text = {key: value.decode() if isinstance(value, bytes) else str(value) for key, value in attrs.items()}
            check({"description", "units", "location"} <= set(text), f"{name} attributes {sorted(text)}")
        vorticity = f["vorticity"].attrs.get("description", b"")
        vorticity = vorticity.decode() if isinstance(vorticity, bytes) else str(vorticity)
        check("signed" in vorticity and "omega_z" in vorticity, f"2D vorticity described as '{vorticity}'")
    for script, args in [("eddy_read.py", [str(run)]), ("plot_history.py", [str(run)]),
                         ("plot_fields.py", [str(run)]), ("report.py", [str(run)])]:
        done = subprocess.run([sys.executable, str(POSTPROCESS / script)] + args, capture_output=True, text=True)
        check(done.returncode == 0, f"{script}: exit {done.returncode}: {done.stderr[-500:]}")
    check((run / "history.png").is_file(), "history.png")
    print("postprocess outputs:", sorted(p.name for p in run.iterdir()), flush=True)


def check_scalar_output(work):
    """A small heated cavity writes temperature into every field file: the initial linear profile exactly, the same
    values as the checkpoint of the same step, listed in fields.xmf also after a restart, plotted by plot_fields.py."""
    import h5py
    import numpy as np
    import xml.etree.ElementTree as ET
    run = work / "heated"
    deck = str(HERE.parent.parent / "inputs" / "heated_cavity2d_ra1e4.yaml")
    args = [deck, "--set", f"output.directory={run}", "--set", "domain.cells=[16,16]", "--set",
            "output.interval_steps=10", "--set", "output.log_interval=10"]
    result = eddy(args + ["--set", "time.max_steps=20"], ranks=2)
    check(result.returncode == 0, f"heated run exit {result.returncode}")
    show(result)
    restarted = eddy(args + ["--set", "time.max_steps=30", "--restart", "latest"], ranks=2)
    check(restarted.returncode == 0, f"heated restart exit {restarted.returncode}")
    with h5py.File(run / "fields_000000.h5", "r") as f:
        temperature = f["temperature"][...]
        x = f.attrs["origin"][0] + (np.arange(16) + 0.5) * f.attrs["spacing"][0]
        check(temperature.shape == (1, 16, 16), f"temperature shape {temperature.shape}")
        # initial: {type: linear, axis: x, low: 1, high: 0} on the unit cavity
        error = np.max(np.abs(temperature - (1 - x)[None, None, :]))
        check(error < 1e-12, f"initial temperature differs from 1 - x by {error}")
    with h5py.File(run / "fields_000030.h5", "r") as f, \
            h5py.File(run / "checkpoints" / "checkpoint_000030.h5", "r") as c:
        check(np.array_equal(f["temperature"][...], c["scalar_temperature"][...]),
              "field output temperature differs from the checkpoint's at step 30")
        t = f["temperature"][...]
        check(np.all(np.isfinite(t)) and t.min() > -0.01 and t.max() < 1.01, f"temperature range {t.min()} {t.max()}")
    grids = ET.parse(run / "fields.xmf").getroot().findall("./Domain/Grid/Grid")
    check(len(grids) == 4, f"XDMF steps {len(grids)} (expected 0, 10, 20, 30)")
    for grid in grids:
        cells = [a for a in grid.findall("Attribute") if a.get("Name") == "temperature" and a.get("Center") == "Cell"]
        check(len(cells) == 1, f"XDMF step {grid.get('Name')} lists no cell array temperature")
    png = run / "temperature.png"
    done = subprocess.run([sys.executable, str(POSTPROCESS / "plot_fields.py"), str(run), "--array", "temperature",
                           "-o", str(png)], capture_output=True, text=True)
    check(done.returncode == 0 and png.is_file(), f"plot_fields.py --array temperature: {done.stderr[-500:]}")


def check_dissipation(work):
    """The Taylor-Green deck on 16^3 cells, on 2 ranks at two solver tolerances: the telemetry's guess residuals, and
    the rates of dissipation.py. Before the vortices interact the flow decays as the discrete Laplacian's eigenmode:
    -dk/dt = 2 nu lambda k with lambda = 3 (2 sin(h/2) / h)^2, 1.3% below the continuous 3 at this spacing h. The rate
    must match the discrete value to 1e-4, and the two tolerances must agree to far less than that."""
    import csv
    import math
    deck = str(HERE.parent.parent / "inputs" / "taylor_green3d_re1600.yaml")
    runs = []
    for rtol in ("1e-4", "1e-8"):
        run = work / f"tg16_{rtol}"
        result = eddy([deck, "--set", "domain.cells=[16,16,16]", "--set", "time.end_time=0.05", "--set",
                       f"pressure.rtol={rtol}", "--set", "output.interval_time=0", "--set",
                       "output.checkpoint_interval_steps=0", "--set", f"output.directory={run}"], ranks=2)
        check(result.returncode == 0, f"Taylor-Green run (rtol {rtol}) exit {result.returncode}")
        runs.append(str(run))
    # Each step's largest initial-guess residual: at least the last solve's final one, and above the tolerance exactly
    # where the step iterated.
    for run, rtol in zip(runs, (1e-4, 1e-8)):
        for row in csv.DictReader((Path(run) / "telemetry.csv").open()):
            guess, final = float(row["poisson_guess_residual"]), float(row["poisson_residual"])
            iterated = int(row["poisson_iterations"]) > 0
            check(guess >= final, f"{run} step {row['step']}: guess residual {guess} below the final {final}")
            check(iterated == (guess > rtol), f"{run} step {row['step']}: guess residual {guess}, "
                                              f"{row['poisson_iterations']} iterations at rtol {rtol}")
    rates = work / "rates.csv"
    done = subprocess.run([sys.executable, str(POSTPROCESS / "dissipation.py")] + runs +
                          ["--csv", str(rates), "--plot", str(work / "dissipation.png")],
                          capture_output=True, text=True)
    print(done.stdout + done.stderr[-2000:], flush=True)
    check(done.returncode == 0, f"dissipation.py: exit {done.returncode}")
    check("largest |difference|" in done.stdout, "dissipation.py printed no comparison of the two runs")
    check((work / "dissipation.png").is_file(), "dissipation.png")
    if not rates.is_file():
        check(False, "dissipation.py wrote no CSV")
        return
    rows = list(csv.DictReader(rates.open()))
    nu, h, k0 = 0.000625, 2 * math.pi / 16, 0.125
    decay = 2 * nu * 3 * (math.sin(h / 2) / (h / 2)) ** 2  # 2 nu lambda: k(t) = k0 exp(-decay t)
    by_run = {run: [(float(r["time"]), float(r["rate"])) for r in rows if r["run"] == run] for run in runs}
    for run, values in by_run.items():
        check(len(values) >= 3, f"{run}: {len(values)} rates")
        for t, rate in values[:3]:
            expected = decay * k0 * math.exp(-decay * t)
            check(abs(rate / expected - 1) < 1e-4, f"{run}: -dk/dt {rate:.8e} at t {t:.4f}, expected {expected:.8e}")
    first, second = (by_run[run][0][1] for run in runs)
    check(abs(first - second) < 1e-6 * decay * k0, f"the tolerances' first rates differ: {first:.10e} {second:.10e}")


def check_bench_exchanges(work):
    """`eddy bench step` on 2 ranks gives each rank's exposed exchanges and names the slowest rank, whose share is its
    own; rank 0's entry is its halo and poisson_halo shares added. It also times steps with exact and host-timed phase
    times in turn, over one stretch of the flow: both get a time, and V-cycles within one a step of each other."""
    del work
    result = bench(["step", "--n", "16", "--steps", "4", "--warmup", "2"], ranks=2)
    show(result)
    check(result.returncode == 0, f"bench step exit {result.returncode}")
    per_rank = re.search(r"exposed exchanges \(halo \+ poisson_halo\) per rank \[% of its step\]:((?: [0-9.]+)+)",
                         result.stdout)
    slowest = re.search(r"slowest rank (\d+) \(most time outside communication\): ([0-9.]+)%; the ranks wait "
                        r"([0-9.]+)% for it", result.stdout)
    check(per_rank is not None and slowest is not None, "no per-rank exposed exchanges printed")
    if per_rank is None or slowest is None:
        return
    shares = [float(x) for x in per_rank.group(1).split()]
    check(len(shares) == 2 and all(0 <= x <= 100 for x in shares), f"per-rank shares {shares}")
    rank = int(slowest.group(1))
    check(rank in (0, 1) and abs(float(slowest.group(2)) - shares[rank]) < 0.051,
          f"slowest rank {rank} with {slowest.group(2)}% against {shares}")
    halo = re.search(r"share halo +([0-9.]+)%", result.stdout)
    solver = re.search(r"share poisson_halo +([0-9.]+)%", result.stdout)
    check(halo is not None and solver is not None and
          abs(float(halo.group(1)) + float(solver.group(1)) - shares[0]) < 0.151,
          f"rank 0's halo and poisson_halo shares do not add up to its entry {shares[0]}")
    check(0 <= float(slowest.group(3)) <= 100, f"waiting share {slowest.group(3)}")
    times = dict(re.findall(r"time per step in turn, (exact|host-timed) \[ms\] +([0-9.]+)", result.stdout))
    cycles = dict(re.findall(r"V-cycles per step in turn, (exact|host-timed) +([0-9.]+)", result.stdout))
    timings = {"exact", "host-timed"}
    check(set(times) == timings and all(float(t) > 0 for t in times.values()), f"steps in turn: times {times}")
    check(set(cycles) == timings and abs(float(cycles["exact"]) - float(cycles["host-timed"])) <= 1,
          f"steps in turn: V-cycles {cycles}")


def check_bad_input(work):
    """A corpus of bad decks, overrides and run-time situations, each on 1 and 2 ranks: exit 2, one message from rank 0
    naming the key or file, no MPI_ABORT, and nothing written."""
    inputs = HERE.parent.parent / "inputs"
    cavity = str(inputs / "cavity2d_re100.yaml")
    (work / "a_folder").mkdir()
    (work / "empty.yaml").write_text("# only a comment\n---\n")
    (work / "tabbed.yaml").write_text("domain:\n\tcells: [16, 16]\n")
    (work / "nested.yaml").write_text("name: " + "[" * 20000 + "\n")
    (work / "whole_body.yaml").write_text(
        "domain: {cells: [16, 16]}\nbodies:\n  - {name: block, shape: circle, center: [0.5, 0.5], radius: 5}\n")
    (work / "a_file").write_text("not a folder\n")
    earlier = work / "earlier_run"
    earlier.mkdir()
    (earlier / "deck.yaml").write_text("name: earlier\n")
    long_list = "[" + ",".join(str(n) for n in range(20000)) + "]"
    cases = [  # name, ranks, deck and overrides, what the message must name
        ("folder_as_deck", (1, 2), [str(work / "a_folder")], "is a folder"),
        ("empty_deck", (1, 2), [str(work / "empty.yaml")], "is empty"),
        ("tab_indent", (1, 2), [str(work / "tabbed.yaml")], "indented with a tab"),
        ("deep_nesting", (1, 2), [str(work / "nested.yaml")], "nested.yaml"),
        ("body_covers_all", (1, 2), [str(work / "whole_body.yaml")], "bodies[0]"),
        ("huge_viscosity", (1, 2), [cavity, "--set", "physics.viscosity=1e30"], "physics.viscosity"),
        ("tiny_fixed_dt", (1, 2), [cavity, "--set", "time.dt=1e-300"], "time.dt"),
        ("long_list", (1, 2), [cavity, "--set", f"domain.cells={long_list}"], "domain.cells"),
        ("grid_misfit", (2,), [cavity, "--set", "parallel.process_grid=[3,1]"], "parallel.process_grid"),
        ("ranks_beyond_cells", (2,), [cavity, "--set", "domain.cells=[1,1]"], "domain.cells"),
        ("output_is_file", (1, 2), [cavity], "output.directory"),
        ("output_under_file", (1, 2), [cavity], "output.directory"),
        ("results_exist", (1, 2), [cavity], "output.directory"),
        ("restart_missing", (1, 2), [cavity, "--restart", "no_such_checkpoint.h5"], "--restart"),
    ]
    for name, rank_counts, args, names in cases:
        for ranks in rank_counts:
            out = work / f"out_{name}_np{ranks}"
            target = {"output_is_file": work / "a_file", "output_under_file": work / "a_file" / "sub",
                      "results_exist": earlier}.get(name, out)
            before = (work / "a_file").read_text()
            result = eddy(args + ["--set", f"output.directory={target}"], ranks=ranks)
            message = terminal(result)
            errors = [line for line in message.splitlines() if line.startswith("eddy: error:")]
            label = f"{name} on {ranks} rank(s)"
            check(result.returncode == 2, f"{label}: exit {result.returncode} (expected 2): {message[-600:]}")
            check(len(errors) == 1, f"{label}: {len(errors)} error lines: {errors}")
            check(errors and names in errors[0], f"{label}: the message does not name {names!r}: {errors}")
            check(errors and "rank " not in errors[0].split(":")[1], f"{label}: a rank's own message: {errors}")
            check(all(len(line) < 1000 for line in errors), f"{label}: a message longer than 1000 characters")
            check("MPI_ABORT" not in message, f"{label}: MPI_ABORT banner")
            check(not out.exists(), f"{label}: wrote {out}")
            check((work / "a_file").read_text() == before, f"{label}: changed a_file")
            check(sorted(p.name for p in earlier.iterdir()) == ["deck.yaml"], f"{label}: changed {earlier}")


def check_probes(work):
    """Probes and lines of a small heated cavity on 2 ranks: physics.csv holds the probe's velocity, pressure and
    temperature every step; lines/<name>_<step>.csv holds the line at the start and with every field output, restart
    included, and the starting line is the initial temperature 1 - x exactly at the points away from the walls. Then
    plot_bodies.py on a short cylinder run with the deck's surface probes."""
    import csv
    run = work / "probed"
    deck = str(HERE.parent.parent / "inputs" / "heated_cavity2d_ra1e4.yaml")
    args = [deck, "--set", f"output.directory={run}", "--set", "domain.cells=[16,16]", "--set",
            "output.interval_steps=10", "--set", "lines=[{name: mid, from: [0, 0.5], to: [1, 0.5], points: 5}]",
            "--set", "probes=[{name: c, at: [0.4, 0.3]}]"]
    result = eddy(args + ["--set", "time.max_steps=20"], ranks=2)
    check(result.returncode == 0, f"probed run exit {result.returncode}")
    restarted = eddy(args + ["--set", "time.max_steps=30", "--restart", "latest"], ranks=2)
    check(restarted.returncode == 0, f"probed restart exit {restarted.returncode}")
    with open(run / "physics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 30, f"physics.csv rows {len(rows)} (expected 30 steps)")
    for column in ("c_u", "c_v", "c_p", "c_temperature"):
        check(column in rows[0], f"physics.csv lacks {column}: {list(rows[0])}")
    files = sorted(p.name for p in (run / "lines").iterdir())
    check(files == [f"mid_{s:06d}.csv" for s in (0, 10, 20, 30)], f"line files {files}")
    with open(run / "lines" / "mid_000000.csv", newline="") as f:
        line = list(csv.DictReader(f))
    check(len(line) == 5 and list(line[0]) == ["time", "s", "x", "y", "u", "v", "p", "temperature"],
          f"line table {list(line[0]) if line else []}, {len(line)} rows")
    for row in line[1:-1]:
        error = abs(float(row["temperature"]) - (1 - float(row["x"])))
        check(error < 1e-12, f"initial temperature at x = {row['x']} off by {error}")
    print("probes and lines:", files, flush=True)
    cylinder = work / "cylinder"
    result = eddy([str(HERE.parent.parent / "inputs" / "cylinder2d_re20.yaml"), "--set", f"output.directory={cylinder}",
                   "--set", "domain.cells=[128,24]", "--set", "domain.length=[2.18667,0.41]", "--set",
                   "time.max_steps=20", "--set", "output.interval_time=0"], ranks=2)
    check(result.returncode == 0, f"cylinder run exit {result.returncode}")
    done = subprocess.run([sys.executable, str(POSTPROCESS / "plot_bodies.py"), str(cylinder), "--benchmark", "2d1",
                           "--velocity", "0.2"], capture_output=True, text=True)
    check(done.returncode == 0 and (cylinder / "bodies.png").is_file(), f"plot_bodies.py: {done.stderr[-500:]}")
    check("dp_last" in done.stdout, f"plot_bodies.py printed no Delta p: {done.stdout}")


CHECKS = {"bad_input": check_bad_input, "outputs": check_outputs, "exchanges": check_bench_exchanges, "kernels": check_kernel_times, "signal": check_signal, "diverged": check_diverged,
          "truncated": check_truncated, "postprocess": check_postprocess, "scalars": check_scalar_output,
          "dissipation": check_dissipation, "probes": check_probes}


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=sorted(CHECKS))
    parser.add_argument("--eddy", required=True)
    parser.add_argument("--mpiexec", required=True, help="launcher up to the rank count, e.g. 'mpirun -np'")
    parser.add_argument("--work", required=True, help="scratch folder (emptied first)")
    ARGS = parser.parse_args()
    work = Path(ARGS.work) / ARGS.check
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    CHECKS[ARGS.check](work)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("all checks passed")


if __name__ == "__main__":
    main()
