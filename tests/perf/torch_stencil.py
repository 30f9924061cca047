#!/usr/bin/env python3
"""The 7-point Laplacian apply, Jacobi sweep and red-black Gauss-Seidel sweep written the way a PyTorch user would,
compiled with torch.compile, timed the same way as `eddy bench stencil` (random fp64 data, warm-up, CUDA events,
median of 20). Run it in the same job as eddy's benchmark so the two numbers share the machine state.

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


def parity(shape, device):
    """(i + j + k) mod 2 of every interior cell, from three broadcast index vectors (no mask in memory)."""
    import torch

    i, j, k = (torch.arange(m, device=device) for m in shape)
    return (i.view(-1, 1, 1) + j.view(1, -1, 1) + k.view(1, 1, -1)) % 2


def red_black_in_place(x, b, h2, omega):
    """One over-relaxed red-black Gauss-Seidel sweep, red (even i + j + k) first, updating x's interior in place."""
    colour = parity(b.shape, x.device)
    c = x[1:-1, 1:-1, 1:-1]
    for red_or_black in (0, 1):
        c.copy_((c + omega * (jacobi(x, b, h2) - c)).where(colour == red_or_black, c))
    return x


def red_black_into_copy(x, b, h2, omega):
    """The same sweep without mutating x: each colour writes a new field that keeps x's ghosts."""
    colour = parity(b.shape, x.device)
    for red_or_black in (0, 1):
        c = x[1:-1, 1:-1, 1:-1]
        inner = (c + omega * (jacobi(x, b, h2) - c)).where(colour == red_or_black, c)
        x = x.clone()
        x[1:-1, 1:-1, 1:-1] = inner
    return x


def red_black_padded(x, b, h2, omega):
    """The same sweep where the ghosts are zero (a homogeneous Dirichlet box): each colour pads its new interior into
    a new field, so no copy of x is made and each colour reads x and b once and writes once."""
    import torch.nn.functional as F

    colour = parity(b.shape, x.device)
    for red_or_black in (0, 1):
        c = x[1:-1, 1:-1, 1:-1]
        x = F.pad((c + omega * (jacobi(x, b, h2) - c)).where(colour == red_or_black, c), (1, 1, 1, 1, 1, 1))
    return x


def red_black_by_loops(x, b, h2, omega):
    """The sweep cell by cell in plain Python, the reference the compiled forms are checked against."""
    y = x.clone()
    n0, n1, n2 = b.shape
    for red_or_black in (0, 1):
        for i in range(n0):
            for j in range(n1):
                for k in range(n2):
                    if (i + j + k) % 2 != red_or_black:
                        continue
                    s = (y[i, j + 1, k + 1] + y[i + 2, j + 1, k + 1] + y[i + 1, j, k + 1] + y[i + 1, j + 2, k + 1] +
                         y[i + 1, j + 1, k] + y[i + 1, j + 1, k + 2])
                    old = y[i + 1, j + 1, k + 1]
                    y[i + 1, j + 1, k + 1] = old + omega * ((s - h2 * b[i, j, k]) / 6 - old)
    return y


def median_ms(fn, device, reps=20, warmup=5):
    import time
    import torch

    for _ in range(warmup):
        fn()
    if device != "cuda":
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            times.append(1e3 * (time.perf_counter() - start))
        return statistics.median(times)
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


def report_lines(version, n, t_lap, t_jac, t_rb_in_place, t_rb_copy, t_rb_padded):
    """The lines this script prints (scripts/bench_table.py reads them)."""
    cells = n**3
    rows = [("laplacian apply (16 B/cell)", t_lap, 16), ("jacobi sweep (24 B/cell)", t_jac, 24),
            ("red-black sweep, in place (48 B/cell)", t_rb_in_place, 48),
            ("red-black sweep, into a copy (48 B/cell)", t_rb_copy, 48),
            ("red-black sweep, padded (48 B/cell)", t_rb_padded, 48)]
    header = [f"torch {version} torch.compile, {n}^3 fp64, median of 20",
              f"  {'kernel':<40} {'time [ms]':>10} {'GB/s':>8}"]
    return header + [f"  {name:<40} {ms:10.4f} {per_cell * cells / ms / 1e6:8.1f}" for name, ms, per_cell in rows]


def require_close(what, got, want):
    err = (got - want).abs().max().item() / want.abs().max().item()
    if err > 1e-12:
        raise SystemExit(f"torch_stencil.py: {what} differs by {err:.2e}")


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=512, help="cells per axis (default 512)")
    parser.add_argument("--device", default="cuda", help="torch device (default cuda; cpu checks the forms here)")
    args = parser.parse_args()
    device = args.device
    if device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("torch_stencil.py: no CUDA device visible")
    n = args.n
    h = 1.0 / n
    omega = 1.2  # eddy's default over-relaxation (deck key pressure.relaxation), as in `eddy bench stencil`

    # The eager red-black sweep against the cell-by-cell one on a small box, then each compiled form against eager.
    small_x, small_b = torch.rand(8, 8, 8, dtype=torch.float64), torch.rand(6, 6, 6, dtype=torch.float64)
    require_close("the eager red-black sweep, against the cell-by-cell one",
                  red_black_in_place(small_x.clone(), small_b, 0.3, omega),
                  red_black_by_loops(small_x, small_b, 0.3, omega))

    # Zero ghosts, so that the padded form sweeps the same problem as the others.
    x = torch.nn.functional.pad(torch.rand(n, n, n, dtype=torch.float64, device=device), (1, 1, 1, 1, 1, 1))
    b = torch.rand(n, n, n, dtype=torch.float64, device=device)
    lap = torch.compile(laplacian)
    jac = torch.compile(jacobi)
    rb_in_place = torch.compile(red_black_in_place)
    rb_copy = torch.compile(red_black_into_copy)
    rb_padded = torch.compile(red_black_padded)
    require_close("the compiled Laplacian, against eager", lap(x, 1 / h**2), laplacian(x, 1 / h**2))
    eager_rb = red_black_in_place(x.clone(), b, h * h, omega)
    require_close("the compiled red-black sweep in place, against eager", rb_in_place(x.clone(), b, h * h, omega),
                  eager_rb)
    require_close("the compiled red-black sweep into a copy, against eager", rb_copy(x, b, h * h, omega), eager_rb)
    require_close("the compiled padded red-black sweep, against eager", rb_padded(x, b, h * h, omega), eager_rb)
    t_lap = median_ms(lambda: lap(x, 1 / h**2), device)
    t_jac = median_ms(lambda: jac(x, b, h * h), device)
    t_rb_in_place = median_ms(lambda: rb_in_place(x, b, h * h, omega), device)
    t_rb_copy = median_ms(lambda: rb_copy(x, b, h * h, omega), device)
    t_rb_padded = median_ms(lambda: rb_padded(x, b, h * h, omega), device)
    print("\n".join(report_lines(torch.__version__, n, t_lap, t_jac, t_rb_in_place, t_rb_copy, t_rb_padded)))


if __name__ == "__main__":
    main()
