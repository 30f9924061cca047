#!/usr/bin/env python3
"""The short table of eddy's performance targets, read from the logs of scripts/gpu-bench.sh.

    python3 scripts/bench_table.py build/cuda/bench [--device "NVIDIA H100 80GB HBM3"] [--strict]

Each row is one target of tests/perf/README.md: its result, the floor or peer it is measured against in the same
run, the target, and whether it is met. Logs are found by the names gpu-bench.sh gives them (stencil.log, flow.log,
torch.log, poisson.log, step1.log, step1_small.log, step2weak.log, step2strong.log, reduce2.log); a row whose log is
missing says so. Where gpu-bench.sh ran nccl-tests' all_reduce_perf (nccl_tests2.log, nccl_tests2_graph.log), its
time for the same 8 bytes is the allreduce's peer. Runs on 4 and 8 GPUs add rows of their own where their logs are
present (stepGweak.log, stepGstrong.log, reduceG.log, haloG.log for G GPUs): weak scaling judged at >= 90% on 4 and
>= 85% on 8, strong scaling at >= 75% on 4, the allreduce and the halo exchange's transports side by side. The strong
scaling of a grid too large for one GPU (stepGstrong_large.log, EDDY_LARGE_N cells per axis) is measured against its
run on 2 GPUs (step2strong_large.log). The targets of the step, the solver and the scaling hold at 512^3 only (`-` at
other sizes); the H100 has its own where the targets differ (--device, as nvidia-smi names the GPU). --strict exits
non-zero when a log is present but lacks a line the table needs, so that a change to a benchmark's output cannot go
unnoticed.
"""
import argparse
import re
import sys
from pathlib import Path

KERNEL_ROW = re.compile(r"^\s*(?P<name>\S.*?)\s+(?P<bytes>\d+)\s+(?P<ms>[\d.]+)\s+(?P<gbs>[\d.]+)\s+(?P<frac>[\d.]+)\s*$")
QUANTITY = re.compile(r"^\s*(?P<name>\S.*?)\s{2,}(?P<value>-?[\d.]+(?:e[-+]?\d+)?)%?\s*$")
GRID = re.compile(r"(\d+) x (\d+) x (\d+) cells.*?, (\d+) rank\(s\)")
SLOWEST = re.compile(r"slowest rank \d+ .*?: ([\d.]+)%")
TORCH_ROW = re.compile(r"^\s*(laplacian apply|jacobi sweep|red-black sweep, (?:in place|into a copy|padded)) "
                       r"\(\d+ B/cell\)\s+([\d.]+)\s+[\d.]+\s*$")
TORCH_RED_BLACK = ["red-black sweep, in place", "red-black sweep, into a copy", "red-black sweep, padded"]

KERNEL_FLOOR = 0.90
TORCH_LEAD = 1.15


class MissingLine(Exception):
    """A log that is present lacks a line the table needs."""


class Logs:
    """The benchmark logs of one gpu-bench.sh run, read on demand."""

    def __init__(self, directory):
        self.directory = Path(directory)
        self.text = {}

    def lines(self, name):
        """The lines of `name`.log, or None when gpu-bench.sh did not write it."""
        if name not in self.text:
            path = self.directory / f"{name}.log"
            self.text[name] = path.read_text(errors="replace").splitlines() if path.is_file() else None
        return self.text[name]

    def kernel(self, log, row):
        """(milliseconds, fraction of the floor) of kernel `row` in a kernel table."""
        for line in self.lines(log):
            m = KERNEL_ROW.match(line)
            if m and m.group("name") == row:
                return float(m.group("ms")), float(m.group("frac"))
        raise MissingLine(f"{log}.log has no kernel row '{row}'")

    def quantity(self, log, name, required=True):
        """The value of quantity `name` in a benchmark's two-column table (None where absent and not required)."""
        for line in self.lines(log):
            m = QUANTITY.match(line)
            if m and m.group("name") == name:
                return float(m.group("value"))
        if not required:
            return None
        raise MissingLine(f"{log}.log has no quantity '{name}'")

    def cube(self, log):
        """n of the n^3 cells a benchmark's first line names (stencil, flow, poisson, torch)."""
        m = re.search(r"(\d+)\^3", self.lines(log)[0] if self.lines(log) else "")
        if not m:
            raise MissingLine(f"{log}.log does not start with its n^3 cells")
        return int(m.group(1))

    def grid(self, log):
        """(cells in all, ranks) from a step benchmark's first line."""
        for line in self.lines(log):
            m = GRID.search(line)
            if m:
                return int(m.group(1)) * int(m.group(2)) * int(m.group(3)), int(m.group(4))
        raise MissingLine(f"{log}.log has no line with its grid and ranks")

    def slowest_exposed(self, log):
        """The exposed exchanges of the slowest rank, in % of its step."""
        for line in self.lines(log):
            m = SLOWEST.search(line)
            if m:
                return float(m.group(1))
        raise MissingLine(f"{log}.log has no line with the slowest rank's exposed exchanges")

    def torch(self, kernels):
        """torch.compile's fastest time in ms over the forms `kernels` of one operation (e.g. ['jacobi sweep'])."""
        times = []
        for kernel in kernels:
            found = [float(m.group(2)) for m in map(TORCH_ROW.match, self.lines("torch")) if m and m.group(1) == kernel]
            if not found:
                raise MissingLine(f"torch.log has no row '{kernel}'")
            times += found
        return min(times)

    def allreduce(self, log, how="back to back, one fence"):
        """The device-buffer allreduce of a reduction benchmark's ranks, timed `how`, in us, and its backend: NCCL's
        where the log has it (the backend of GPU runs), else the first; (None, None) for a `how` the log lacks."""
        found = {}
        for line in self.lines(log):
            m = re.match(r"^\s*device buffer, (\w+), " + re.escape(how) + r"\s+([\d.]+)\s*$", line)
            if m:
                found.setdefault(m.group(1), float(m.group(2)))
        if not found:
            if how != "back to back, one fence":
                return None, None
            raise MissingLine(f"{log}.log has no device-buffer allreduce")
        backend = "nccl" if "nccl" in found else next(iter(found))
        return found[backend], backend

    def halo(self, log):
        """The exchange's median time in us per transport ({'mpi': ..., 'nccl': ..., 'peer': ...}) and the floors'
        ({'device copy': ..., 'peer copy': ...}) of a halo benchmark."""
        exchanges, floors = {}, {}
        for line in self.lines(log):
            m = re.match(r"^\s*exchange, (\w+)\s+([\d.]+)\s", line)
            if m:
                exchanges[m.group(1)] = float(m.group(2))
            m = re.match(r"^\s*floor: (device copy|peer copy) of the \w+ bytes\s+([\d.]+)\s", line)
            if m:
                floors[m.group(1)] = float(m.group(2))
        if not exchanges:
            raise MissingLine(f"{log}.log has no exchange row")
        return exchanges, floors

    def nccl_tests(self, log):
        """nccl-tests' all_reduce_perf in place on 8 bytes, in us (its row: size, count, type, redop, root, then time,
        bandwidths and errors out of place and in place)."""
        for line in self.lines(log):
            words = line.split()
            if len(words) >= 10 and words[0] == "8" and words[2] == "double":
                return float(words[9])
        raise MissingLine(f"{log}.log has no all_reduce_perf row of 8 bytes")


def targets_for(device):
    """The time targets of tests/perf/README.md: the H200's, or the H100's where they differ."""
    h100 = "H100" in device
    return {"ns": 0.5 if h100 else 0.36, "vcycle": 9.0 if h100 else 6.5, "solve": 100.0 if h100 else 75.0}


def verdict(met):
    return "-" if met is None else ("met" if met else "NOT met")


def build_rows(logs, device):
    """The table's rows: (what, result, floor or peer, target, verdict), and the lines missing from present logs."""
    rows, missing = [], []
    limits = targets_for(device)

    def row(what, needs, make):
        absent = [name for name in needs if logs.lines(name) is None]
        if absent:
            rows.append((what, "not run (" + ", ".join(f"{a}.log" for a in absent) + ")", "-", "-", "-"))
            return
        try:
            rows.append((what,) + make())
        except MissingLine as e:
            missing.append(str(e))
            rows.append((what, f"unreadable: {e}", "-", "-", "-"))

    def step():
        ms, ns = logs.quantity("step1", "time per step [ms]"), logs.quantity("step1", "ns per cell per step (all ranks)")
        cycles = logs.quantity("step1", "V-cycles per step (3 stages)")
        met = ns <= limits["ns"] if logs.grid("step1")[0] == 512**3 else None
        return (f"{ms:.2f} ms = {ns:.3f} ns/cell ({cycles:.2f} V-cycles)", "WaterLily.jl fp32 H100: 1.57 ns",
                f"<= {limits['ns']} ns (stretch 0.25)", verdict(met))

    def small_step():
        ns_small = logs.quantity("step1_small", "ns per cell per step (all ranks)")
        peer = "-"
        if logs.lines("step1") is not None:
            peer = f"{ns_small / logs.quantity('step1', 'ns per cell per step (all ranks)'):.1f}x the large step's ns"
        return (f"{logs.quantity('step1_small', 'time per step [ms]'):.3f} ms = {ns_small:.3f} ns/cell", peer,
                "no collapse", "-")

    def multigrid():
        cycle, solve = logs.quantity("poisson", "V-cycle time [ms] (median)"), logs.quantity(
            "poisson", "solve time [ms] (median)")
        iterations = int(logs.quantity("poisson", "iterations to 1e-10"))
        met = cycle <= limits["vcycle"] and solve <= limits["solve"] if logs.cube("poisson") == 512 else None
        return (f"{cycle:.2f} / {solve:.1f} ms ({iterations} cycles)", "HPGMG-FV H100: 490 ms solve",
                f"<= {limits['vcycle']:g} / {limits['solve']:g} ms", verdict(met))

    def kernels(log, names):
        def make():
            fractions = [logs.kernel(log, name)[1] for name in names]
            return (" / ".join(f"{f:.2f}" for f in fractions), "stream of its mix, same run", f">= {KERNEL_FLOOR}",
                    verdict(min(fractions) >= KERNEL_FLOOR))

        return make

    def against_torch(eddy_row, torch_kernels):
        def make():
            ms, _ = logs.kernel("stencil", eddy_row)
            theirs = logs.torch(torch_kernels)
            if logs.cube("stencil") != logs.cube("torch"):
                raise MissingLine(f"torch.log times {logs.cube('torch')}^3 cells, stencil.log {logs.cube('stencil')}^3")
            return (f"{ms:.3f} ms: {theirs / ms:.2f}x", f"torch.compile {theirs:.3f} ms, same run",
                    f">= {TORCH_LEAD}x", verdict(theirs / ms >= TORCH_LEAD))

        return make

    def memory():
        per_cell = logs.quantity("step1", "device bytes per cell (rank 0)", required=False)
        if per_cell is None:  # the step benchmark reports device memory only
            return ("not reported on this backend", "-", "<= 200 B/cell", "-")
        largest = logs.quantity("step1", "largest grid on one device [cells]")
        return (f"{per_cell:.1f} B/cell", f"largest grid {largest:.3g} cells", "<= 200 B/cell", verdict(per_cell <= 200))

    def solver_ms(log):
        """The pressure solver's time per step in a step log: its shares (cycles, exchanges, reductions) of the step."""
        shares = ("share poisson", "share poisson_halo", "share poisson_reduction")
        return logs.quantity(log, "time per step [ms]") * sum(logs.quantity(log, s) for s in shares) / 100

    def scaling(log, kind, goal=None, exposed_goal=None):
        """Weak or strong scaling of a step log against step1.log, judged at `goal` % efficiency (None: not judged) and
        the slowest rank's exposed exchanges at `exposed_goal` % of its step (None: not judged), at 512^3 only."""
        def make():
            one = logs.quantity("step1", "time per step [ms]")
            many = logs.quantity(log, "time per step [ms]")
            _, ranks = logs.grid(log)
            per_rank = 1 if kind == "weak" else ranks
            efficiency = 100 * one / (per_rank * many)
            exposed = logs.slowest_exposed(log)
            result = f"{efficiency:.1f}% on {ranks}; exposed exchanges {exposed:.1f}%"
            # Warm-started solves near their tolerance take one cycle more or less from run to run: where the two runs'
            # V-cycles differ, the solver's time of the run on several ranks is scaled to the one-rank run's cycles,
            # and the lower of the two efficiencies is judged.
            cycles_one = logs.quantity("step1", "V-cycles per step (3 stages)", required=False)
            cycles_many = logs.quantity(log, "V-cycles per step (3 stages)", required=False)
            judged_efficiency = efficiency
            if cycles_one and cycles_many and abs(cycles_one - cycles_many) > 1e-9:
                solver = solver_ms(log)
                equal = 100 * one / (per_rank * (many - solver + solver * cycles_one / cycles_many))
                result += f"; {equal:.1f}% at equal V-cycles ({cycles_many:.2f} against {cycles_one:.2f})"
                judged_efficiency = min(efficiency, equal)
            judged = goal is not None and logs.grid("step1")[0] == 512**3
            met = judged_efficiency >= goal and (exposed_goal is None or exposed <= exposed_goal) if judged else None
            target = "-" if goal is None else f">= {goal}%" + (f", exposed <= {exposed_goal}%" if exposed_goal else "")
            return (result, f"one rank: {one:.2f} ms", target, verdict(met))

        return make

    def strong_large(log):
        """Strong scaling of a grid too large for one GPU: against its run on 2 GPUs."""
        def make():
            two = logs.quantity("step2strong_large", "time per step [ms]")
            many = logs.quantity(log, "time per step [ms]")
            cells, ranks = logs.grid(log)
            efficiency = 100 * 2 * two / (ranks * many)
            side = round(cells ** (1 / 3))
            result = f"{efficiency:.1f}% on {ranks} ({side}^3); exposed exchanges {logs.slowest_exposed(log):.1f}%"
            return (result, f"2 ranks: {two:.2f} ms", "-", verdict(None))

        return make

    def halo(log):
        def make():
            exchanges, floors = logs.halo(log)
            result = ", ".join(f"{name} {us:.1f} us" for name, us in exchanges.items())
            floor = ", ".join(f"{name} {us:.1f} us" for name, us in floors.items()) or "-"
            return (result, floor, "-", verdict(None))

        return make

    def allreduce(log, judged=True, peer=None):
        def make():
            us, backend = logs.allreduce(log)
            replayed, _ = logs.allreduce(log, "in a CUDA graph")
            result = f"{us:.1f} us ({backend})" + (f", {replayed:.1f} in a CUDA graph" if replayed else "")
            theirs = "-"
            if peer and logs.lines(peer) is not None:
                theirs = f"nccl-tests {logs.nccl_tests(peer):.1f} us"
                if logs.lines(peer + "_graph") is not None:
                    theirs += f", {logs.nccl_tests(peer + '_graph'):.1f} in a graph"
                theirs += ", same run"
            target = "<= 10 us" if judged else "-"
            return (result, theirs, target, verdict(us <= 10 if judged else None))

        return make

    row("full 3D step", ["step1"], step)
    row("small grid step", ["step1_small"], small_step)
    row("V-cycle / solve to 1e-10", ["poisson"], multigrid)
    row("residual / Laplacian apply", ["stencil"],
        kernels("stencil", ["residual (production)", "laplacian apply (pairs)"]))
    row("residual vs torch Jacobi sweep", ["stencil", "torch"],
        against_torch("residual (production)", ["jacobi sweep"]))
    row("Laplacian vs torch", ["stencil", "torch"], against_torch("laplacian apply (pairs)", ["laplacian apply"]))
    row("red-black sweep vs torch", ["stencil", "torch"],
        against_torch("rbgs sweep, fused 64x8 phased (GPU)", TORCH_RED_BLACK))
    row("restriction / prolongation", ["stencil"],
        kernels("stencil", ["restriction (production)", "prolongation (production)"]))
    row("fused red-black sweep", ["stencil"], kernels("stencil", ["rbgs sweep, fused 64x8 phased (GPU)"]))
    row("divergence / correction / diagnostics", ["flow"],
        kernels("flow",
                ["divergence (production)", "gradient correction (production)", "flow diagnostics (production)"]))
    row("velocity stages 1 / 2 / 3", ["flow"],
        kernels("flow",
                ["velocity stage 1 (keeps R)", "velocity stage 2 (reads, keeps R)", "velocity stage 3 (reads R)"]))
    row("memory", ["step1"], memory)
    row("weak scaling", ["step1", "step2weak"], scaling("step2weak", "weak", 95, exposed_goal=5))
    row("strong scaling", ["step1", "step2strong"], scaling("step2strong", "strong", 85, exposed_goal=5))
    row("allreduce of one value, 2 ranks", ["reduce2"], allreduce("reduce2", peer="nccl_tests2"))

    def present(name):
        return logs.lines(name) is not None

    for gpus, weak_goal, strong_goal in ((4, 90, 75), (8, 85, None)):
        if present(f"step{gpus}weak"):
            row(f"weak scaling, {gpus} GPUs", ["step1", f"step{gpus}weak"],
                scaling(f"step{gpus}weak", "weak", weak_goal))
        if present(f"step{gpus}strong"):
            row(f"strong scaling, {gpus} GPUs", ["step1", f"step{gpus}strong"],
                scaling(f"step{gpus}strong", "strong", strong_goal))
        if present(f"step{gpus}strong_large"):
            row(f"strong scaling, large grid, {gpus} GPUs", ["step2strong_large", f"step{gpus}strong_large"],
                strong_large(f"step{gpus}strong_large"))
        if present(f"reduce{gpus}"):
            row(f"allreduce of one value, {gpus} ranks", [f"reduce{gpus}"], allreduce(f"reduce{gpus}", judged=False))
        if present(f"halo{gpus}"):
            row(f"halo exchange by transport, {gpus} ranks", [f"halo{gpus}"], halo(f"halo{gpus}"))
    return rows, missing


def print_table(rows, title):
    headers = ("what", "result", "floor or peer", "target", "")
    widths = [max(len(str(r[c])) for r in rows + [headers]) for c in range(len(headers))]
    print(title)
    for r in [headers] + rows:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(r, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="the logs of one scripts/gpu-bench.sh run (its EDDY_BENCH_OUT)")
    parser.add_argument("--device", default="", help="the GPU's name, as nvidia-smi gives it (picks H100 targets)")
    parser.add_argument("--strict", action="store_true", help="fail when a present log lacks a line the table needs")
    args = parser.parse_args()
    if not Path(args.directory).is_dir():
        sys.exit(f"bench_table: no directory '{args.directory}' (pass the EDDY_BENCH_OUT of a gpu-bench.sh run)")
    rows, missing = build_rows(Logs(args.directory), args.device)
    print_table(rows, f"eddy performance targets{' on ' + args.device if args.device else ''} ({args.directory})")
    if args.strict and missing:
        sys.exit("bench_table: " + "; ".join(missing))


if __name__ == "__main__":
    main()
