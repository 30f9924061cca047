"""Open an eddy run in the ParaView GUI, set up as render_paraview.py renders it (the last output, a diverging colour
map centred on zero for the 2D vorticity, axes in the deck's length unit, 3D runs sliced and seen at an angle):

    EDDY_RUN=runs/cavity2d_re100 paraview --script=postprocess/paraview_open.py
    EDDY_RUN=runs/cavity2d_re100 EDDY_ARRAY=velocity paraview --script=postprocess/paraview_open.py

Run it from the repository's top folder, with the ParaView of your desktop (the environment of scripts/in-env.sh has
no display). The time controls then step through every output."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.path.join(os.getcwd(), "postprocess")
sys.path.insert(0, here)
from render_paraview import show_run  # noqa: E402

run_dir = os.environ.get("EDDY_RUN")
if not run_dir or not os.path.isfile(os.path.join(run_dir, "fields.xmf")):
    raise SystemExit(f"paraview_open.py: set EDDY_RUN to a run folder holding fields.xmf (got '{run_dir}')")
show_run(run_dir, os.environ.get("EDDY_ARRAY", "vorticity"))
