"""pvpython check on a real run (run_cli_postprocess's cavity): ParaView's XDMF reader opens fields.xmf with the
time values of the field files, the run's arrays and grid, and cell values equal to the HDF5 datasets."""
import glob
import os
import sys

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import UpdatePipeline, XDMFReader
from vtk.util.numpy_support import vtk_to_numpy

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message, flush=True)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_run_paraview.py RUN_DIR")
    run_dir = sys.argv[1]
    files = sorted(glob.glob(os.path.join(run_dir, "fields_*.h5")))
    check(len(files) >= 2, f"field files {files}")
    times = []
    for name in files:
        with h5py.File(name, "r") as f:
            times.append(float(f.attrs["time"]))
    reader = XDMFReader(FileNames=[os.path.join(run_dir, "fields.xmf")])
    reader.UpdatePipelineInformation()
    check(np.allclose(list(reader.TimestepValues), times, rtol=0, atol=1e-12),
          f"ParaView times {list(reader.TimestepValues)} vs files {times}")
    check(set(reader.CellData.keys()) == {"velocity", "pressure", "vorticity"}, f"arrays {reader.CellData.keys()}")
    UpdatePipeline(time=times[-1], proxy=reader)
    data = servermanager.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet") or data.IsA("vtkDataObjectTree"):
        data = data.GetBlock(0)
    with h5py.File(files[-1], "r") as f:
        nx, ny, nz = [int(c) for c in f.attrs["cells"]]
        check(list(data.GetDimensions()) == [nx + 1, ny + 1, nz + 1], f"dimensions {data.GetDimensions()}")
        for name in ("velocity", "pressure", "vorticity"):
            values = vtk_to_numpy(data.GetCellData().GetArray(name))
            expected = f[name][...].reshape(values.shape)
            check(np.array_equal(values, expected), f"{name} values differ from {files[-1]}")
        check(np.abs(f["velocity"][...]).max() > 0.1, "the run output is at rest")
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("all checks passed")


main()
