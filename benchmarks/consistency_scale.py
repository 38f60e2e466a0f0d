"""Benchmark: time and peak memory of the consistency analysis (SPEC 4.2) at 20, 100, 300 and 1,000 runs.

    python benchmarks/consistency_scale.py [--runs 20 100 300 1000] [--measures 13] [--topics 300]
                                           [--trials 1000] [--hsd-trials 5000] [--threads 2]

Run from the repository root with ``ordeval`` installed (``pip install -e .``) or on the path
(``PYTHONPATH=$PWD/src python benchmarks/consistency_scale.py``).

What the pipeline's consistency job computes for one data set and the "half" condition, on a synthetic
measures x topics x runs score stack generated with numpy (300 topics; graded run quality, topic effects,
noise, and identical run copies as in the papers' baselines): ``--trials`` random splits of the topics
into halves, the split taus of every trial and measure (:func:`ordeval.stats.splits.split_taus`, chunked, with
the O(n log n) kernel), then the randomised Tukey HSD (B = ``--hsd-trials``) on the trials x measures tau
matrix. Each size runs in a fresh subprocess (after one that compiles the numba code if needed), which
reports its wall time (compute only, and with the imports and the loading of the cached numba code: about
1-2 s) and its peak resident memory
(``VmHWM`` of the child, see ``_common.peak_mib``, which includes the interpreter, numpy and
numba: about 100-150 MiB before any data).

Targets (issue): 300 runs under 1 GB and 60 s; 1,000 runs completes under 2 GB. Writes
``results/consistency_scale.json`` and the plot ``results/scale.png`` (with any other
``results/*_scale.json``), and prints, as its last line, ``key=value`` pairs (``runs<R>_s``,
``runs<R>_peak_mib`` per size and whether the targets are met).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np

TARGETS = {"seconds": {"300": 60.0}, "peak_mib": {"300": 1000 * 1e6 / 2**20, "1000": 2000 * 1e6 / 2**20}}


def _peak_mib() -> float:
    from _common import peak_mib  # here: the child imports only what it measures

    return peak_mib()


def synthetic_stack(measures: int, topics: int, runs: int, seed: int = 0) -> np.ndarray:
    """measures x topics x runs scores in [0, 1]-ish: run quality + topic difficulty + noise, transformed
    differently per measure; the last run of every group of ten is a copy of the previous one."""
    rng = np.random.default_rng(seed)
    quality = rng.normal(0, 0.05, runs)
    difficulty = rng.normal(0, 0.15, topics)
    values = np.empty((measures, topics, runs))
    for measure in range(measures):
        noise = rng.normal(0, 0.2, (topics, runs))
        raw = 0.5 + quality[None, :] + difficulty[:, None] + noise
        values[measure] = np.clip(raw, 0, 1) ** rng.uniform(0.5, 2.0)
    copies = np.arange(9, runs, 10)
    values[:, :, copies] = values[:, :, copies - 1]
    return values


def child(arguments: argparse.Namespace) -> None:
    """One size in this process: print a JSON line with the timings and the peak RSS."""
    started = time.perf_counter()
    from ordeval.stats.hsd import randomised_tukey_hsd
    from ordeval.stats.splits import condition_splits, split_taus

    # Load the cached numba code (or compile it) before the clock starts: reported apart.
    split_taus(np.ones((1, 2, 3)), condition_splits("half", 2, 1, 1, np.random.default_rng(0)))
    randomised_tukey_hsd(np.ones((3, 2)), 1, np.random.default_rng(0))
    imported = time.perf_counter()
    runs = arguments.child
    values = synthetic_stack(arguments.measures, arguments.topics, runs)
    generated = time.perf_counter()
    rng = np.random.default_rng([20211101, runs])
    splits = condition_splits("half", arguments.topics, arguments.trials, 10, rng)
    taus = split_taus(values, splits, threads=arguments.threads)
    taus_done = time.perf_counter()
    complete = taus[~np.isnan(taus).any(axis=1)]
    hsd = randomised_tukey_hsd(complete, arguments.hsd_trials, rng, threads=arguments.threads)
    finished = time.perf_counter()
    print(
        json.dumps(
            {
                "size": runs,
                "seconds": finished - generated,
                "taus_seconds": taus_done - generated,
                "hsd_seconds": finished - taus_done,
                "import_and_load_seconds": imported - started,
                "with_imports_seconds": finished - started,
                "peak_mib": _peak_mib(),
                "mean_tau": float(hsd.means.mean()),
                "complete_trials": int(complete.shape[0]),
            }
        )
    )


def run_child(arguments: argparse.Namespace, runs: int, trials: int, hsd_trials: int) -> dict:
    command = [sys.executable, __file__, "--child", str(runs), "--measures", str(arguments.measures)]
    command += ["--topics", str(arguments.topics), "--trials", str(trials), "--hsd-trials", str(hsd_trials)]
    command += ["--threads", str(arguments.threads)]
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return {"size": runs, "failed": completed.returncode, "stderr": completed.stderr[-2000:]}
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - started
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 100, 300, 1000])
    parser.add_argument("--measures", type=int, default=13)
    parser.add_argument("--topics", type=int, default=300)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--hsd-trials", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        child(arguments)
        return 0

    from _common import key_values, machine, target_checks, write_results
    from scale_plot import RESULTS, plot_scale

    print(
        f"consistency analysis: {arguments.measures} measures x {arguments.topics} topics, {arguments.trials} "
        f"splits (halves), split taus, randomised Tukey HSD B = {arguments.hsd_trials}, {arguments.threads} threads"
    )
    warm = run_child(arguments, 12, 4, 10)  # compiles or loads the numba code: not measured
    if "failed" in warm:
        print(warm["stderr"], file=sys.stderr)
        return 1
    rows = []
    print(f"{'runs':>6} {'time (s)':>9} {'taus (s)':>9} {'HSD (s)':>8} {'w/ imports':>10} {'peak (MiB)':>11}")
    for runs in arguments.runs:
        row = run_child(arguments, runs, arguments.trials, arguments.hsd_trials)
        rows.append(row)
        if "failed" in row:
            print(f"{runs:>6} FAILED (exit {row['failed']}): {row['stderr'][-300:]}")
            continue
        print(
            f"{runs:>6} {row['seconds']:>9.2f} {row['taus_seconds']:>9.2f} {row['hsd_seconds']:>8.2f} "
            f"{row['with_imports_seconds']:>10.2f} {row['peak_mib']:>11.0f}"
        )
    checks = target_checks(rows, TARGETS, "runs")
    payload = {
        "analysis": "consistency",
        "size_name": "runs",
        "setting": {key: getattr(arguments, key) for key in ("measures", "topics", "trials", "hsd_trials", "threads")},
        "machine": machine(),
        "rows": [row for row in rows if "failed" not in row],
        "failed": [row for row in rows if "failed" in row],
        "targets": TARGETS,
    }
    path = write_results("consistency_scale", payload)
    results = [json.loads(p.read_text()) for p in sorted(RESULTS.glob("*_scale.json"))]
    print(f"wrote {path} and {plot_scale(results, RESULTS / 'scale.png')}")
    summary = {}
    for row in rows:
        if "failed" in row:
            summary[f"runs{row['size']}_failed"] = 1
            continue
        summary[f"runs{row['size']}_s"] = row["seconds"]
        summary[f"runs{row['size']}_peak_mib"] = row["peak_mib"]
    summary.update(checks)
    print(key_values(summary))
    return 0 if all(checks.values()) and not payload["failed"] else 1


if __name__ == "__main__":
    sys.exit(main())
