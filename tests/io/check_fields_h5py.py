"""Checks the HDF5 field files and fields.xmf of the io sample runs against the analytic fields of write_sample.cpp."""
import math
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

G = np.array([[2.0, 3.0, 0.5], [0.25, -2.0, 1.0], [-1.0, 0.75, 0.0]])
BASE = np.array([1.0, -1.0, 0.5])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def check_run(run_dir, dims):
    three_d = dims == 3
    n = 3 if three_d else 2
    xmf = ET.parse(os.path.join(run_dir, "fields.xmf"))
    grids = xmf.getroot().findall("./Domain/Grid/Grid")
    times = [float(g.find("Time").get("Value")) for g in grids]
    check(times == [0.0, 0.1, 0.2], f"{run_dir}: XDMF times {times}")
    for step, grid in zip((0, 10, 20), grids):
        name = os.path.join(run_dir, "fields_%06d.h5" % step)
        with h5py.File(name, "r") as f:
            t = f.attrs["time"]
            check(f.attrs["step"] == step, f"{name}: step attribute")
            check(abs(t - 0.01 * step) < 1e-15, f"{name}: time attribute {t}")
            cells = [int(c) for c in f.attrs["cells"]]
            origin, spacing = f.attrs["origin"], f.attrs["spacing"]
            nx, ny, nz = cells
            expected_sets = {"velocity", "pressure", "vorticity", "temperature", "dye"} | (
                {"q_criterion"} if three_d else set())
            check(set(f.keys()) == expected_sets, f"{name}: datasets {sorted(f.keys())}")
            check(f["velocity"].shape == (nz, ny, nx, 3), f"{name}: velocity shape {f['velocity'].shape}")
            check(f["pressure"].shape == (nz, ny, nx), f"{name}: pressure shape")
            s = 1 + t
            z, y, x = np.meshgrid(*[origin[a] + (np.arange(cells[a]) + 0.5) * spacing[a] for a in (2, 1, 0)],
                                  indexing="ij")
            coords = [x, y, z if three_d else 0 * z]
            for c in range(3):
                exact = s * (BASE[c] + sum(G[c, a] * coords[a] for a in range(n)))
                if c == 2 and not three_d:
                    exact = 0 * x
                err = np.max(np.abs(f["velocity"][..., c] - exact))
                check(err < 1e-12, f"{name}: velocity component {c} error {err}")
            check(np.max(np.abs(f["pressure"][...] - s * x * y)) < 1e-12, f"{name}: pressure")
            # The scalars: one global cell-centred dataset each, named after the scalar, no ghost (NaN) values.
            scalars = {"temperature": s * (2 + x - 3 * y + (z if three_d else 0)), "dye": s * x * x}
            for scalar, exact in scalars.items():
                data = f[scalar]
                check(data.shape == (nz, ny, nx), f"{name}: {scalar} shape {data.shape}")
                check(data.dtype == np.float64, f"{name}: {scalar} type {data.dtype}")
                check(np.all(np.isfinite(data[...])), f"{name}: {scalar} holds non-finite values")
                check(np.max(np.abs(data[...] - exact)) < 1e-12, f"{name}: {scalar} against the analytic field")
            # A few cells by hand (k, j, i), at both ends of the x and y ranges (so on different ranks).
            for k, j, i in [(0, 0, 0), (nz - 1, ny - 1, nx - 1), (nz // 2, 1, nx - 2), (0, ny - 2, 3)]:
                cx, cy, cz = [origin[a] + ((i, j, k)[a] + 0.5) * spacing[a] for a in range(3)]
                t_cell = s * (2 + cx - 3 * cy + (cz if three_d else 0))
                check(abs(f["temperature"][k, j, i] - t_cell) < 1e-12, f"{name}: temperature at cell {(i, j, k)}")
                check(abs(f["dye"][k, j, i] - s * cx * cx) < 1e-12, f"{name}: dye at cell {(i, j, k)}")
            g = s * G[:n, :n]
            omega = np.array([g[2, 1] - g[1, 2], g[0, 2] - g[2, 0], 0]) if three_d else np.zeros(3)
            omega[2] = g[1, 0] - g[0, 1]
            vort = np.linalg.norm(omega) if three_d else omega[2]
            check(np.max(np.abs(f["vorticity"][...] - vort)) < 1e-10, f"{name}: vorticity")
            if three_d:
                q = -0.5 * np.sum(g * g.T)
                check(np.max(np.abs(f["q_criterion"][...] - q)) < 1e-10, f"{name}: q_criterion")
        attributes = {a.get("Name"): a for a in grid.findall("Attribute")}
        check(set(attributes) == expected_sets, f"{run_dir}: XDMF attributes {sorted(attributes)}")
        for scalar in ("temperature", "dye"):
            a = attributes.get(scalar)
            if a is None:
                continue
            item = a.find("DataItem")
            check(a.get("Center") == "Cell" and a.get("AttributeType") == "Scalar", f"{run_dir}: XDMF {scalar} kind")
            check(item.get("Dimensions").split() == [str(nz), str(ny), str(nx)], f"{run_dir}: XDMF {scalar} dims")
            check(item.text.strip() == "fields_%06d.h5:/%s" % (step, scalar), f"{run_dir}: XDMF {scalar} {item.text}")
        topo = grid.find("Topology").get("Dimensions").split()
        check(topo == [str(nz + 1), str(ny + 1), str(nx + 1)], f"{run_dir}: XDMF topology {topo}")
        geometry = [[float(v) for v in d.text.split()] for d in grid.find("Geometry").findall("DataItem")]
        check(np.allclose(geometry[0], origin[::-1]) and np.allclose(geometry[1], spacing[::-1]),
              f"{run_dir}: XDMF origin/spacing {geometry}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_fields_h5py.py SAMPLE_DIR")
    check_run(os.path.join(sys.argv[1], "sample2d"), 2)
    check_run(os.path.join(sys.argv[1], "sample3d"), 3)
    for message in failures:
        print("FAIL:", message)
    print("checked", "with", len(failures), "failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
