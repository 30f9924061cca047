#!/usr/bin/env python3
"""Plot a 2D snapshot (one z layer) of cell arrays from a field file into a PNG: velocity magnitude and vorticity by
default, or the arrays given with --array (a scalar such as temperature, pressure, ...)."""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from eddy_read import EddyReadError, describe_run, field_files, read_deck_facts, read_fields, run_main, save_figure  # noqa: E402

# Names and units of the cell arrays (the deck's units: length L, time T).
LABELS = {"velocity": ("velocity magnitude |u|", "L/T"), "pressure": ("pressure p", "density L^2/T^2"),
          "q_criterion": ("Q-criterion", "1/T^2")}


def show(ax, f, data, extent, **style):
    """A cell-centred layer: an image on a uniform grid, cells at their true positions on a stretched one."""
    if f["stretched"]:
        ax.set_aspect("equal")
        return ax.pcolormesh(f["x_faces"], f["y_faces"], data, shading="flat", **style)
    return ax.imshow(data, origin="lower", extent=extent, **style)


def pick_file(source, step=None):
    """A field file: `source` itself, or the one of `step` (default: the last) in the run folder `source`."""
    if os.path.isfile(source):
        return source
    files = dict(field_files(source))
    if step is None:
        return files[max(files)]
    if step not in files:
        raise EddyReadError(f"no field output of step {step} in '{source}' (steps: {sorted(files)})")
    return files[step]


def plot_fields(source, output, step=None, layer=None, arrays=("velocity", "vorticity")):
    """Writes one panel per cell array of z layer `layer` (default: the middle) to `output`; velocity is shown as
    its magnitude, vorticity on a symmetric colour scale."""
    f = read_fields(pick_file(source, step))
    stored = list(f["arrays"])
    for name in arrays:
        if name not in stored:
            raise EddyReadError(f"'{f['path']}' has no /{name} (arrays: {', '.join(stored)}); add it to output.fields")
    k = f["cells"][2] // 2 if layer is None else layer
    if not 0 <= k < f["cells"][2]:
        raise EddyReadError(f"layer {k} outside 0..{f['cells'][2] - 1}")
    extent = [f["origin"][0], f["origin"][0] + f["cells"][0] * f["spacing"][0],
              f["origin"][1], f["origin"][1] + f["cells"][1] * f["spacing"][1]]
    three_d = f["cells"][2] > 1
    fig, axes = plt.subplots(1, len(arrays), figsize=(5.8 * len(arrays), 5.2), squeeze=False)
    for ax, name in zip(axes[0], arrays):
        array = f["arrays"][name]
        data = np.linalg.norm(array[k], axis=-1) if array.ndim == 4 else array[k]
        label = LABELS.get(name, (name, ""))
        if name == "vorticity" and not three_d:
            # Signed: a diverging map centred on zero. The walls' vorticity sheets would wash out the interior, so
            # the scale ends at the 99th percentile of |omega| and the colour bar shows the clipped ends.
            limit = float(np.percentile(np.abs(data), 99)) or 1.0
            image = show(ax, f, data, extent, cmap="RdBu_r", vmin=-limit, vmax=limit)
            bar = fig.colorbar(image, ax=ax, shrink=0.85, extend="both")
            label = ("vorticity omega_z", "1/T")
        else:
            if name == "vorticity":
                label = ("vorticity magnitude |curl u|", "1/T")
            image = show(ax, f, data, extent, cmap="viridis")
            bar = fig.colorbar(image, ax=ax, shrink=0.85)
        bar.set_label(f"{label[0]} ({label[1]})" if label[1] else label[0])
        where = f", z layer {k} of {f['cells'][2]} (z = {f['z'][k]:.3g} L)" if three_d else ""
        ax.set_title(f"{label[0]}, t = {f['time']:.4g} T{where}", fontsize="medium")
        ax.set_xlabel("x (L)")
        ax.set_ylabel("y (L)")
    save_figure(fig, describe_run(read_deck_facts(os.path.dirname(os.path.abspath(f["path"])))), output)
    return output


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("source", help="run folder (last output is used) or a fields_NNNNNN.h5 file")
    parser.add_argument("--step", type=int, help="step of the output to plot (default: the last)")
    parser.add_argument("--layer", type=int, help="z layer (cell index) for 3D runs (default: the middle)")
    parser.add_argument("--array", action="append", help="cell array to plot, repeatable (default: velocity and "
                        "vorticity); e.g. --array temperature")
    parser.add_argument("-o", "--output", help="PNG to write (default fields.png next to the data)")
    args = parser.parse_args()
    folder = args.source if os.path.isdir(args.source) else os.path.dirname(args.source)
    print(plot_fields(args.source, args.output or os.path.join(folder, "fields.png"), args.step, args.layer,
                      args.array or ("velocity", "vorticity")))


if __name__ == "__main__":
    run_main(main)
