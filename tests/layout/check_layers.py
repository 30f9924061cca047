#!/usr/bin/env python3
"""The layering of src/ (docs/architecture.md): every #include goes to the file's own folder or to a folder below it,
so no folder includes another in a loop; vendor calls (CUDA runtime and driver, NCCL, inline PTX) and environment
variables of eddy's own stay out of the numerics. Exits 1 with one line per violation."""
import pathlib
import re
import sys

LAYERS = ["core", "device", "config", "grid", "fields", "parallel", "operators", "boundary", "solver", "physics", "io",
          "time", "run", "app"]
# core/ sits on device/ for its clocks (core/phase_timers.hpp); device/ includes nothing of eddy's.
ALLOWED_UP = {("core", "device")}
VENDOR_HOMES = {"device", "parallel"}
VENDOR_CALL = re.compile(r"\b(cuda[A-Z]\w*|cu[A-Z]\w*|nccl[A-Z]\w*)\s*\(|\basm\s*(volatile\s*)?\(")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([a-z_]+)/[^"]+"', re.M)


def strip_comments_and_strings(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def main(src):
    problems = []
    for path in sorted(src.rglob("*.[ch]pp")):
        folder = path.relative_to(src).parts[0]
        if folder not in LAYERS:
            problems.append(f"{path}: folder '{folder}' has no place in the layers")
            continue
        text = path.read_text()
        for target in INCLUDE.findall(text):
            if target not in LAYERS or target == folder:
                continue
            if LAYERS.index(target) > LAYERS.index(folder) and (folder, target) not in ALLOWED_UP:
                problems.append(f"{path}: includes {target}/, a layer above {folder}/")
            if folder == "device":
                problems.append(f"{path}: device/ includes {target}/ (it stands on Kokkos and the vendor alone)")
        code = strip_comments_and_strings(text)
        if folder not in VENDOR_HOMES:
            for match in VENDOR_CALL.finditer(code):
                problems.append(f"{path}: vendor call '{match.group(0).strip()}' outside device/ and parallel/")
        if re.search(r'getenv\s*\(\s*"EDDY_', text):
            problems.append(f"{path}: reads an EDDY_ environment variable (settings belong in the deck)")
    for line in problems:
        print(line)
    print(f"{len(problems)} layering problems in {src}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")))
