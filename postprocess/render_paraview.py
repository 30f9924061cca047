"""Render one PNG of an eddy run with ParaView, from its fields.xmf (run with pvbatch or pvpython):

    pvbatch postprocess/render_paraview.py RUN_DIR [--array vorticity] [--time T] [-o image.png]

2D runs are shown from +z; 3D runs as a slice through the middle of the box, seen at an angle. A signed array (the 2D
vorticity) gets a diverging colour map centred on zero, its ends at the 99th percentile of its magnitude so that the
walls' sheets do not wash out the interior; other arrays a sequential map over their range. Axes carry the deck's
length unit L."""
import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

NO_DISPLAY = 77  # exit status when no X display is available for ParaView's renderer


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", help="run folder holding fields.xmf")
    parser.add_argument("--array", default="vorticity", help="cell array to colour by (default vorticity; "
                        "'velocity' colours by magnitude)")
    parser.add_argument("--time", type=float, help="simulated time to show (default: the last output)")
    parser.add_argument("--size", type=int, nargs=2, default=[900, 700], help="image size in pixels")
    parser.add_argument("-o", "--output", help="PNG to write (default RUN_DIR/render.png)")
    args = parser.parse_args()

    xmf = os.path.join(args.run_dir, "fields.xmf")
    if not os.path.isfile(xmf):
        sys.exit(f"error: '{xmf}' does not exist (no field output in this run folder?)")
    if not os.environ.get("DISPLAY") and not os.environ.get("EDDY_RENDER_NO_X"):
        # ParaView builds with an X renderer need a display; use a virtual one when Xvfb exists.
        if shutil.which("Xvfb"):
            sys.exit(_rerun_on_virtual_display())
        print("error: no X display for ParaView's renderer and no Xvfb (apt install xvfb); set "
              "EDDY_RENDER_NO_X=1 if this ParaView renders off screen (EGL/OSMesa builds)", file=sys.stderr)
        sys.exit(NO_DISPLAY)
    from paraview.simple import SaveScreenshot

    try:
        view = show_run(args.run_dir, args.array, args.time, args.size)
    except ValueError as error:
        sys.exit(f"error: {error}")
    output = args.output or os.path.join(args.run_dir, "render.png")
    SaveScreenshot(output, view, ImageResolution=args.size)
    if not os.path.isfile(output) or os.path.getsize(output) == 0:
        sys.exit(f"error: ParaView did not write '{output}'")
    print(output)


def show_run(run_dir, array="vorticity", time=None, size=None):
    """Shows the fields of `run_dir` in ParaView's active render view (of `size` pixels where given) at `time`
    (default: the last output), coloured by `array` as the module's docstring says; returns the view. Raises
    ValueError for an array the run lacks. postprocess/paraview_open.py calls it from the ParaView GUI."""
    from paraview import servermanager
    from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetAnimationScene, GetColorTransferFunction,
                                 GetScalarBar, ResetCamera, Show, Slice, Text, XDMFReader)
    from vtk.util.numpy_support import vtk_to_numpy

    xmf = os.path.join(run_dir, "fields.xmf")
    reader = XDMFReader(FileNames=[xmf])
    reader.UpdatePipelineInformation()
    if array not in reader.CellData.keys():
        raise ValueError(f"no cell array '{array}' in '{xmf}' (arrays: {', '.join(reader.CellData.keys())})")
    times = list(reader.TimestepValues) or [0.0]
    shown_time = times[-1] if time is None else min(times, key=lambda t: abs(t - time))
    view = GetActiveViewOrCreate("RenderView")
    if size:
        view.ViewSize = size
    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = shown_time
    view.ViewTime = shown_time
    reader.UpdatePipeline(shown_time)
    bounds = reader.GetDataInformation().GetBounds()
    three_d = (bounds[5] - bounds[4]) > 1.5 * min(bounds[1] - bounds[0], bounds[3] - bounds[2]) / 64 and \
        reader.GetDataInformation().GetNumberOfCells() > 0 and _layers(reader) > 1
    source = reader
    if three_d:
        source = Slice(Input=reader)
        source.SliceType.Origin = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2,
                                   (bounds[4] + bounds[5]) / 2]
        source.SliceType.Normal = [0, 0, 1]
    display = Show(source, view)
    display.SetRepresentationType("Surface")  # a one-cell-thick 2D grid would otherwise show as its outline
    ColorBy(display, ("CELLS", array, "Magnitude") if array == "velocity" else ("CELLS", array))
    values = vtk_to_numpy(servermanager.Fetch(source).GetCellData().GetArray(array))
    values = values.reshape(len(values), -1)
    magnitude = (values ** 2).sum(axis=1) ** 0.5
    lookup = GetColorTransferFunction(array)
    signed = values.shape[1] == 1 and values.min() < 0 < values.max() and not three_d
    if signed:
        limit = float(sorted(magnitude)[int(0.99 * (len(magnitude) - 1))]) or 1.0
        lookup.ApplyPreset("Cool to Warm", True)
        lookup.RescaleTransferFunction(-limit, limit)
    else:
        lookup.ApplyPreset("Viridis (matplotlib)", True)
        lookup.RescaleTransferFunction(float(magnitude.min()), float(magnitude.max()))
    display.SetScalarBarVisibility(view, True)
    names = {"vorticity": ("vorticity omega_z" if not three_d else "vorticity magnitude", "1/T"),
             "velocity": ("velocity |u|", "L/T"), "pressure": ("pressure", "density L^2/T^2"),
             "q_criterion": ("Q-criterion", "1/T^2")}
    name, unit = names.get(array, (array, ""))
    bar = GetScalarBar(lookup, view)
    bar.Title = f"{name} ({unit})" if unit else name
    bar.ComponentTitle = ""
    where = f", slice z = {(bounds[4] + bounds[5]) / 2:.3g} L" if three_d else ""
    title = Text(Text=f"{os.path.basename(os.path.abspath(run_dir))}: {name}, t = {shown_time:.4g} T{where}")
    title_display = Show(title, view)
    title_display.WindowLocation = "Upper Center"
    title_display.FontSize = 14
    display.DataAxesGrid.GridAxesVisibility = 1
    display.DataAxesGrid.XTitle = "x (L)"
    display.DataAxesGrid.YTitle = "y (L)"
    display.DataAxesGrid.ZTitle = "z (L)"
    centre = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2, (bounds[4] + bounds[5]) / 2]
    view.CameraFocalPoint = centre
    if three_d:
        # From the low-y side and above, so that the slice and the box's depth both show.
        size = max(bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4])
        view.CameraPosition = [centre[0] + 0.9 * size, centre[1] - 1.6 * size, centre[2] + 1.4 * size]
        view.CameraViewUp = [0, 0, 1]
    else:
        view.CameraPosition = [centre[0], centre[1], bounds[5] + 10]
        view.CameraViewUp = [0, 1, 0]
    ResetCamera(view)
    view.OrientationAxesVisibility = 0
    return view


def _rerun_on_virtual_display():
    """Run this script again on a private Xvfb display and return its exit status. The display number is drawn at
    random from a wide range and given to Xvfb explicitly, so concurrent renders do not probe each other's servers;
    -noreset keeps the server up between pvbatch's X connections (a reset in between aborted the render)."""
    log = tempfile.TemporaryFile()
    for _ in range(5):
        number = random.randrange(100, 30000)
        if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
            continue
        server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
                                   "-noreset"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        try:
            if _wait_for_display(server, number):
                status = subprocess.call([sys.executable] + sys.argv, env=dict(os.environ, DISPLAY=f":{number}"))
                if status != 0:
                    log.seek(0)
                    print(f"Xvfb :{number} said:\n{log.read().decode(errors='replace')}", file=sys.stderr)
                return status
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait()
    log.seek(0)
    print(f"error: Xvfb did not start a display for ParaView's renderer:\n{log.read().decode(errors='replace')}",
          file=sys.stderr)
    return 1


def _wait_for_display(server, number, seconds=60):
    """True once X server `server` accepts connections on display `number`; False if it exits or times out."""
    path = f"/tmp/.X11-unix/X{number}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
                return True
            except OSError:
                time.sleep(0.05)
    return False


def _layers(reader):
    """Number of cell layers in z of the reader's grid."""
    extent = reader.GetDataInformation().GetExtent()
    return extent[5] - extent[4]


if __name__ == "__main__":
    main()
