"""Same configuration, same bytes (issue 13), on any x86-64 CPU (issue 42): two clean runs of a tiny
configuration in two folders give byte-identical outputs, the second with other floating-point kernels --
numpy's SIMD kernels switched off down to its baseline (AVX-512 and AVX2 where the CPU has them), another BLAS
kernel and numba compiling for a generic CPU -- as on another machine; and the manifest records each output's
SHA-256 and the environment."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from conftest import run_workflow, tiny_config

from ordeval.results.compare import EXACT
from ordeval.results.reference import compare_folders

#: Files that are not outputs: job logs (time-stamped) and the TeX engine's byproducts.
BYPRODUCTS = {".log", ".aux", ".fls", ".fdb_latexmk", ".out", ".toc"}


def hashes(results: Path) -> dict[str, str]:
    return {
        str(path.relative_to(results)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(results.rglob("*"))
        if path.is_file()
        and "logs" not in path.relative_to(results).parts
        and path.suffix not in BYPRODUCTS
        and path.name != "manifest.json"  # it records the machine's environment
    }


def other_kernels(cache: Path) -> dict[str, str]:
    """Environment variables that make this machine compute as another CPU would: numpy without its dispatched
    SIMD kernels, OpenBLAS's oldest x86-64 kernel, numba for a generic CPU (its own cache folder)."""
    from numpy._core import _multiarray_umath as umath

    dispatched = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
    variables = {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(cache)}
    if dispatched:
        variables["NPY_DISABLE_CPU_FEATURES"] = " ".join(dispatched)
    if platform.machine() in ("x86_64", "AMD64"):
        variables["OPENBLAS_CORETYPE"] = "Prescott"
    return variables


def test_two_clean_runs_on_other_kernels_give_byte_identical_outputs(tmp_path, monkeypatch):
    config = tiny_config(name="determinism", classification=True)
    runs = []
    for folder in ("first", "second"):
        workdir = tmp_path / folder
        if folder == "second":
            for name, value in other_kernels(tmp_path / "numba-cache").items():
                monkeypatch.setenv(name, value)
        run_workflow(workdir, config)
        runs.append(workdir / "results" / config["name"])
    first, second = hashes(runs[0]), hashes(runs[1])
    assert len(first) > 50
    assert sorted(first) == sorted(second)
    differing = sorted(name for name in first if first[name] != second[name])
    assert differing == []
    assert compare_folders(runs[0], runs[1], EXACT).equal  # ordeval diff agrees
    done = subprocess.run([sys.executable, "-m", "ordeval", "diff", *map(str, runs)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    environments = [json.loads((run / "manifest.json").read_text())["environment"] for run in runs]
    assert environments[1]["numba_cpu"] == "generic" and "NUMBA_CPU_NAME=generic" in environments[1]["kernel_variables"]
    if os.environ.get("NPY_DISABLE_CPU_FEATURES") is None and "dispatched none" not in environments[0]["numpy_simd"]:
        assert environments[1]["numpy_simd"].endswith("dispatched none")
    assert not [name for name in first if Path(name).name.startswith(".") or "-partial" in name]

    manifest = json.loads((runs[0] / "manifest.json").read_text())
    recorded = {entry["path"]: entry["sha256"] for entry in manifest["output_files"]}
    prefix = f"results/{config['name']}/"
    for name, digest in first.items():
        if name in ("manifest.json", "report/ordeval.tex", "report/ordeval.pdf"):
            continue
        assert recorded.get(prefix + name) == digest, name
    text = (runs[0] / "manifest.json").read_text()
    assert str(tmp_path) not in text  # no absolute path of the run folder
