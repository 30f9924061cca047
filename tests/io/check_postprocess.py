"""Runs every postprocess script on the io sample runs (see write_sample.cpp) and checks what they produce:
PNG files, a Markdown report, exact centreline profiles against a reference made from the analytic field, and
one-line errors (no traceback) for missing or wrong input."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
POSTPROCESS = os.path.join(HERE, "..", "..", "postprocess")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(script, *args):
    result = subprocess.run([sys.executable, os.path.join(POSTPROCESS, script), *args], capture_output=True,
                            text=True)
    return result.returncode, result.stdout + result.stderr


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def check_stretched(run_dir):
    """The stretched sample read back: its face coordinates, the centres between them, and the analytic temperature
    2 + x - 3 y (times 1.2 at t = 0.2) at those centres."""
    sys.path.insert(0, POSTPROCESS)
    import eddy_read  # noqa: E402
    import numpy as np  # noqa: E402
    f = eddy_read.read_fields(dict(eddy_read.field_files(run_dir))[20])
    faces = f["y_faces"]
    widths = np.diff(faces)
    check(f["stretched"] and len(faces) == 13 and abs(faces[0] - 0.5) < 1e-12 and abs(faces[-1] - 2.0) < 1e-12,
          f"stretched sample: y faces {faces}")
    check(widths.max() / widths.min() > 2, f"stretched sample: widths {widths} are not stretched")
    check(np.allclose(f["y"], 0.5 * (faces[1:] + faces[:-1]), rtol=0, atol=1e-14), "stretched sample: y centres")
    x, y = np.meshgrid(f["x"], f["y"])
    error = np.abs(f["temperature"][0] - 1.2 * (2 + x - 3 * y)).max()
    check(error < 1e-12, f"stretched sample: temperature at the cell centres off by {error}")


def write_reference(path, offset=0.0):
    """Centreline values of the analytic sample2d field at t = 0.2 (x in [-1, 1], y in [0.5, 2])."""
    s = 1.2
    lines = ["# made by check_postprocess.py", "quantity,Re,coord_name,coord,grid_index_129,coord_exact,value,status"]
    for n in range(1, 10):
        c = 0.1 * n
        x, y = -1 + 2 * c, 0.5 + 1.5 * c
        lines.append(f"u,100,y,{c},0,{c},{s * (1 + 3 * y) + offset},OK")  # x = 0 on the vertical centreline
        lines.append(f"v,100,x,{c},0,{c},{s * (-1 + 0.25 * x - 2 * 1.25) + offset},OK")  # y = 1.25
    lines.append("u,100,y,0,1,0,0,BOUNDARY")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def check_channel(tmp):
    """plot_channel.py on profiles made from the reference itself passes --check; with U 10 % high it fails."""
    sample = os.path.join(HERE, "..", "regression", "data", "channel_profiles_sample.csv")
    with open(sample) as f:
        text = f.read()
    for name, content in (("channel_good", text), ("channel_fast", scaled_mean_u(text, 1.1))):
        os.makedirs(os.path.join(tmp, name, "statistics"))
        with open(os.path.join(tmp, name, "statistics", "profiles_000100.csv"), "w") as f:
            f.write(content)
    # A driving-gradient history at the sample's own u_tau = 0.0637 (h = 1): u_tau^2 = G h.
    with open(os.path.join(tmp, "channel_good", "physics.csv"), "w") as f:
        f.write("step,time,drive_pressure_gradient\n")
        for step in range(1, 301):
            f.write(f"{step},{0.5 * step},{0.0637 ** 2}\n")
    code, out = run("plot_channel.py", os.path.join(tmp, "channel_good"), "--check")
    check(code == 0 and is_png(os.path.join(tmp, "channel_good", "channel.png")), f"channel sample: {out}")
    check("Re_tau from the driving pressure gradient averaged over the window: 178.1" in out,
          f"channel sample's Re_tau from its driving gradient: {out}")
    code, out = run("plot_channel.py", os.path.join(tmp, "channel_fast"), "--check")
    check(code == 2 and "U+" in out and "FAIL" in out, f"channel with U 10 % high must fail: {out}")


def scaled_mean_u(text, factor):
    """The profiles CSV with its mean_u column scaled."""
    lines = text.splitlines()
    header = next(n for n, line in enumerate(lines) if not line.startswith("#"))
    column = lines[header].split(",").index("mean_u")
    for n in range(header + 1, len(lines)):
        cells = lines[n].split(",")
        cells[column] = repr(float(cells[column]) * factor)
        lines[n] = ",".join(cells)
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_postprocess.py SAMPLE_DIR")
    sample2d, sample3d, stretched = (os.path.join(sys.argv[1], d) for d in ("sample2d", "sample3d", "stretched2d"))
    with tempfile.TemporaryDirectory() as tmp:
        for script in ("eddy_read.py", "plot_history.py", "plot_fields.py", "plot_profiles.py", "report.py"):
            code, out = run(script, "--help")
            check(code == 0 and "usage" in out, f"{script} --help: {out}")
        check_stretched(stretched)
        for run_dir, tag in ((sample2d, "2d"), (sample3d, "3d"), (stretched, "stretched")):
            for script in ("plot_history.py", "plot_fields.py"):
                png = os.path.join(tmp, f"{script}_{tag}.png")
                code, out = run(script, run_dir, "-o", png)
                check(code == 0 and os.path.isfile(png) and is_png(png), f"{script} {tag}: {out}")
            code, out = run("eddy_read.py", run_dir)
            check(code == 0 and "step 20: t = 0.2" in out and "temperature" in out, f"eddy_read.py {tag}: {out}")
            # Colour by a transported scalar: one panel per --array.
            png = os.path.join(tmp, f"temperature_{tag}.png")
            code, out = run("plot_fields.py", run_dir, "--array", "temperature", "--array", "dye", "-o", png)
            check(code == 0 and os.path.isfile(png) and is_png(png), f"plot_fields.py --array temperature {tag}: {out}")
            one = os.path.join(tmp, f"temperature_alone_{tag}.png")
            code_one, out_one = run("plot_fields.py", run_dir, "--array", "temperature", "-o", one)
            if code == 0 and code_one == 0:
                width = int.from_bytes(open(png, "rb").read()[16:20], "big")
                single = int.from_bytes(open(one, "rb").read()[16:20], "big")
                check(width == 2 * single, f"plot_fields.py two arrays: image width {width}, expected 2 panels of "
                      f"{single}")
            code, out = run("plot_fields.py", run_dir, "--array", "salinity")
            check(code == 1 and "has no /salinity" in out and "temperature" in out and "Traceback" not in out,
                  f"plot_fields.py unknown array {tag}: {out}")

        reference = os.path.join(tmp, "reference.csv")
        write_reference(reference)
        code, out = run("plot_profiles.py", sample2d, "--reference", reference, "--tolerance", "1e-9", "-o",
                        os.path.join(tmp, "profiles.png"))
        check(code == 0 and is_png(os.path.join(tmp, "profiles.png")), f"plot_profiles.py exact reference: {out}")
        write_reference(reference, offset=0.01)
        code, out = run("plot_profiles.py", sample2d, "--reference", reference, "--tolerance", "0.005")
        check(code == 2 and "max deviation from the reference: 0.01 U" in out, f"plot_profiles.py offset: {out}")
        code, out = run("plot_profiles.py", sample2d, "--reference", reference, "--re", "1000")
        check(code == 1 and "no points for Re = 1000" in out and "Traceback" not in out, f"wrong Re: {out}")

        code, out = run("report.py", sample2d, "--reference", reference)
        report = os.path.join(sample2d, "report.md")
        check(code == 0 and os.path.isfile(report), f"report.py: {out}")
        if os.path.isfile(report):
            text = open(report).read()
            for image in ("history", "fields", "profiles"):
                check(f"![{image}](report/{image}.png)" in text and is_png(os.path.join(sample2d, "report",
                                                                                        f"{image}.png")),
                      f"report.md lacks {image}")
            check("| final time | 0.2 |" in text and "20 steps to t = 0.2" in text, "report.md summary/history")
            check(not re.search(r"\d\.\d{7,}", text), "report.md quotes numbers to more than four digits")

        missing = os.path.join(tmp, "no_such_run")
        for script in ("plot_history.py", "plot_fields.py", "report.py"):
            code, out = run(script, missing)
            check(code == 1 and "does not exist" in out and "Traceback" not in out, f"{script} missing: {out}")
        bad = os.path.join(tmp, "bad_run")
        os.makedirs(bad)
        with open(os.path.join(bad, "telemetry.csv"), "w") as f:
            f.write("not,a,telemetry,file\n")
        with open(os.path.join(bad, "fields_000001.h5"), "w") as f:
            f.write("truncated")
        code, out = run("plot_history.py", bad)
        check(code == 1 and "not an eddy telemetry file" in out, f"bad telemetry: {out}")
        code, out = run("plot_fields.py", bad)
        check(code == 1 and "cannot read" in out and "Traceback" not in out, f"bad field file: {out}")
        check_channel(tmp)
    for message in failures:
        print("FAIL:", message)
    print("postprocess check with", len(failures), "failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
