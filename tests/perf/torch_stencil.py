#!/usr/bin/env python3
"""The 7-point Laplacian apply and Jacobi sweep written the way a PyTorch user would, compiled with torch.compile,
timed the same way as `eddy bench stencil` (random fp64 data, warm-up, CUDA events, median of 20).
Run it in the same job as eddy's benchmark so the two numbers share the machine state.

  python3 tests/perf/torch_stencil.py --n 512
"""
import argparse
import statistics


def laplacian(x, inv_h2):
    c = x[1:-1, 1:-1, 1:-1]
    return inv_h2 * (x[2:, 1:-1, 1:-1] + x[:-2, 1:-1, 1:-1] + x[1:-1, 2:, 1:-1] + x[1:-1, :-2, 1:-1]
                     + x[1:-1, 1:-1, 2:] + x[1:-1, 1:-1, :-2] - 6 * c)


def jacobi(x, b, h2):
    return (x[2:, 1:-1, 1:-1] + x[:-2, 1:-1, 1:-1] + x[1:-1, 2:, 1:-1] + x[1:-1, :-2, 1:-1]
            + x[1:-1, 1:-1, 2:] + x[1:-1, 1:-1, :-2] - h2 * b) / 6


def median_ms(fn, reps=20, warmup=5):
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def report_lines(version, n, t_lap, t_jac):
    """The lines this script prints (scripts/bench_table.py reads them)."""
    cells = n**3
    return [
        f"torch {version} torch.compile, {n}^3 fp64, median of 20",
        f"  {'kernel':<28} {'time [ms]':>10} {'GB/s':>8}",
        f"  {'laplacian apply (16 B/cell)':<28} {t_lap:10.4f} {16 * cells / t_lap / 1e6:8.1f}",
        f"  {'jacobi sweep (24 B/cell)':<28} {t_jac:10.4f} {24 * cells / t_jac / 1e6:8.1f}",
    ]


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=512, help="cells per axis (default 512)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("torch_stencil.py: no CUDA device visible")
    n = args.n
    x = torch.rand(n + 2, n + 2, n + 2, dtype=torch.float64, device="cuda")
    b = torch.rand(n, n, n, dtype=torch.float64, device="cuda")
    h = 1.0 / n
    lap = torch.compile(laplacian)
    jac = torch.compile(jacobi)
    ref = laplacian(x, 1 / h**2)
    err = (lap(x, 1 / h**2) - ref).abs().max().item() / ref.abs().max().item()
    if err > 1e-12:
        raise SystemExit(f"torch_stencil.py: compiled Laplacian differs from eager by {err:.2e}")
    t_lap = median_ms(lambda: lap(x, 1 / h**2))
    t_jac = median_ms(lambda: jac(x, b, h * h))
    print("\n".join(report_lines(torch.__version__, n, t_lap, t_jac)))


if __name__ == "__main__":
    main()
