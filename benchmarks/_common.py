"""Helpers shared by the benchmark scripts of this folder (timing, results files, machine description).

The scripts run as ``python benchmarks/<name>.py`` from the repository root with ``ordeval`` importable:
installed (``pip install -e .``) or on the path (``PYTHONPATH=$PWD/src``); Python puts this folder on
the import path itself, so they import this module and :mod:`baselines` by name.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

#: Where the scripts record their numbers: ``results/`` beside them, or the folder named by the
#: environment variable ``ORDEVAL_BENCHMARK_RESULTS`` (the smoke tests run the scripts at tiny sizes and
#: must not overwrite the recorded results).
RESULTS = Path(os.environ.get("ORDEVAL_BENCHMARK_RESULTS") or Path(__file__).resolve().parent / "results")


def peak_mib() -> float:
    """Peak resident memory of this process (MiB): ``VmHWM`` of ``/proc/self/status`` on Linux.

    Not ``ru_maxrss``: Linux keeps that maximum across ``execve``, so a child started by a parent that
    holds a large data set reports the parent's size (the benchmarks run each measurement in a child
    process; their parent generates the data). ``VmHWM`` belongs to the new address space. Elsewhere,
    ``ru_maxrss`` (an upper bound)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def median_seconds(function: Callable[[], object], repeats: int) -> tuple[float, list[float]]:
    """Median wall time of ``repeats`` calls (and all of them)."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), seconds


def machine() -> dict:
    """What the numbers were measured on."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "load_average_1min_at_start": load,
    }


def write_results(name: str, payload: dict) -> Path:
    """``results/<name>.json`` (pretty-printed), returning its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n")
    return path


def target_checks(rows: list[dict], targets: dict, prefix: str) -> dict[str, int]:
    """``{<prefix><size>_<key>_target_met: 1 or 0}`` for every measured row (``rows``, each with a ``size``;
    failed ones skipped) that ``targets`` ({key: {size: limit}}) sets a limit for; each printed."""
    measured = {row["size"]: row for row in rows if "failed" not in row}
    checks = {}
    for key, limits in targets.items():
        for size, limit in limits.items():
            if int(size) in measured:
                checks[f"{prefix}{size}_{key}_target_met"] = int(measured[int(size)][key] < limit)
    for name, met in checks.items():
        print(f"{name}: {'yes' if met else 'NO'}")
    return checks


def key_values(pairs: dict) -> str:
    """The machine-readable last line: ``key=value`` pairs separated by spaces."""
    formatted = (f"{key}={value:.4g}" if isinstance(value, float) else f"{key}={value}" for key, value in pairs.items())
    return " ".join(formatted)
