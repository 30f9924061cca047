"""pvpython check: ParaView's XDMF reader opens fields.xmf of the io sample runs with the right arrays, extents,
time values and cell values (compared with the HDF5 datasets)."""
import os
import sys

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import XDMFReader, UpdatePipeline
from vtk.util.numpy_support import vtk_to_numpy

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def check_run(run_dir, dims):
    reader = XDMFReader(FileNames=[os.path.join(run_dir, "fields.xmf")])
    reader.UpdatePipelineInformation()
    times = list(reader.TimestepValues)
    check(np.allclose(times, [0.0, 0.1, 0.2]), f"{run_dir}: ParaView time values {times}")
    names = set(reader.CellData.keys())
    expected = {"velocity", "pressure", "vorticity", "temperature", "dye"} | ({"q_criterion"} if dims == 3 else set())
    check(names == expected, f"{run_dir}: ParaView cell arrays {sorted(names)}")
    for step, t in zip((0, 10, 20), (0.0, 0.1, 0.2)):
        UpdatePipeline(time=t, proxy=reader)
        data = servermanager.Fetch(reader)
        if data.IsA("vtkMultiBlockDataSet") or data.IsA("vtkDataObjectTree"):
            data = data.GetBlock(0)
        with h5py.File(os.path.join(run_dir, "fields_%06d.h5" % step), "r") as f:
            nx, ny, nz = [int(c) for c in f.attrs["cells"]]
            check(data.GetNumberOfCells() == nx * ny * nz, f"{run_dir}: {data.GetNumberOfCells()} cells")
            check(list(data.GetDimensions()) == [nx + 1, ny + 1, nz + 1],
                  f"{run_dir}: ParaView point dimensions {data.GetDimensions()}")
            bounds = data.GetBounds()
            origin, spacing = f.attrs["origin"], f.attrs["spacing"]
            for a in range(3):
                lo, hi = origin[a], origin[a] + spacing[a] * [nx, ny, nz][a]
                check(abs(bounds[2 * a] - lo) < 1e-12 and abs(bounds[2 * a + 1] - hi) < 1e-12,
                      f"{run_dir}: bounds axis {a}: {bounds}")
            # VTK cell order is x fastest, the same as the C order of (nz, ny, nx).
            velocity = vtk_to_numpy(data.GetCellData().GetArray("velocity"))
            check(velocity.shape == (nx * ny * nz, 3), f"{run_dir}: velocity tuples {velocity.shape}")
            check(np.array_equal(velocity, f["velocity"][...].reshape(-1, 3)), f"{run_dir}: velocity values t={t}")
            pressure = vtk_to_numpy(data.GetCellData().GetArray("pressure"))
            check(np.array_equal(pressure, f["pressure"][...].reshape(-1)), f"{run_dir}: pressure values t={t}")
            # One cell by hand: the cell centre (x, y) of cell (i=3, j=2, k=0) has pressure s x y.
            x = origin[0] + 3.5 * spacing[0]
            y = origin[1] + 2.5 * spacing[1]
            check(abs(pressure[3 + nx * 2] - (1 + t) * x * y) < 1e-12, f"{run_dir}: pressure at cell (3, 2, 0)")
            # The scalars are cell data (not point data) with the values and range of the HDF5 datasets.
            check(data.GetPointData().GetArray("temperature") is None, f"{run_dir}: temperature read as point data")
            for scalar in ("temperature", "dye"):
                array = data.GetCellData().GetArray(scalar)
                check(array is not None, f"{run_dir}: no cell array {scalar} at t={t}")
                if array is None:
                    continue
                values = vtk_to_numpy(array)
                stored = f[scalar][...].reshape(-1)
                check(array.GetNumberOfComponents() == 1, f"{run_dir}: {scalar} components")
                check(np.array_equal(values, stored), f"{run_dir}: {scalar} values t={t}")
                low, high = array.GetRange()
                check(low == stored.min() and high == stored.max(), f"{run_dir}: {scalar} range {(low, high)}")
            # temperature = s (2 + x - 3 y [+ z]): its range follows from the extreme cell centres.
            s = 1 + t
            centres = [(origin[a] + 0.5 * spacing[a], origin[a] + ([nx, ny, nz][a] - 0.5) * spacing[a])
                       for a in range(3)]
            zc = centres[2] if dims == 3 else (0.0, 0.0)
            expected_range = (s * (2 + centres[0][0] - 3 * centres[1][1] + zc[0]),
                              s * (2 + centres[0][1] - 3 * centres[1][0] + zc[1]))
            temperature = data.GetCellData().GetArray("temperature")
            if temperature is not None:
                check(np.allclose(temperature.GetRange(), expected_range, rtol=0, atol=1e-12),
                      f"{run_dir}: temperature range {temperature.GetRange()}, expected {expected_range}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_fields_paraview.py SAMPLE_DIR")
    check_run(os.path.join(sys.argv[1], "sample2d"), 2)
    check_run(os.path.join(sys.argv[1], "sample3d"), 3)
    for message in failures:
        print("FAIL:", message)
    print("ParaView check with", len(failures), "failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
