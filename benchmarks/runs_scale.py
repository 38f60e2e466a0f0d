"""Benchmark: the whole pipeline as the number of runs grows (one OQ and one OC data set, simulated runs).

    python benchmarks/runs_scale.py [--runs 20 100 300 1000] [--datasets Sem16T4E Sem16T4C] [--cores 2]
                                    [--keep DIR]

Run from the repository root. For each number of runs N: a copy of ``config/config.yaml`` cut to the two
data sets, their ``simulate`` source set to N runs in all (the simulated systems plus the data set's
baselines), ``report: {pdf: false}``, written to a fresh temporary folder where the project's Snakefile
runs end to end (``snakemake --snakefile <repo>/Snakefile --directory <folder> --cores 2``). Recorded: the
wall time of the run; per rule, its jobs and the sum of their wall times (Snakemake's metadata, as
``pipeline.py`` reads it); the peak resident memory of the process tree (Snakemake and every job it
starts: the sum of their RSS sampled every 0.2 s with psutil, Snakemake's own dependency); the largest
figure (PNG pixels) and the longest significance-group cell of the leaderboards.

Targets (issue): t(1000)/t(100) <= 12 (close to linear), peak < 2 GB, no figure over 4,000 px. Writes
``results/runs_scale.json`` (or under ``ORDEVAL_BENCHMARK_RESULTS``) and prints, as its last line,
``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import yaml
from _common import key_values, machine, write_results
from pipeline import job_times

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"ratio_1000_over_100": 12.0, "peak_mib": 2048.0, "figure_px": 4000}


def scaled_config(runs: int, datasets: list[str], name: str) -> dict:
    """``config/config.yaml`` cut to ``datasets``, each with ``runs`` runs in all (its first ``simulate``
    source makes up the difference), no PDF report."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    unknown = [dataset for dataset in datasets if dataset not in config["datasets"]]
    if unknown:
        raise SystemExit(f"config/config.yaml has no data set {', '.join(unknown)}")
    config["datasets"] = {dataset: config["datasets"][dataset] for dataset in datasets}
    for dataset, spec in config["datasets"].items():
        simulated = [source for source in spec["runs"] if source["type"] == "simulate"]
        if not simulated:
            raise SystemExit(f"{dataset}: no 'simulate' run source to scale")
        fixed = len(spec["runs"]) - len(simulated)  # baselines: one run each
        simulated[0]["systems"] = max(1, runs - fixed - simulated[0].get("english_variants", 0))
        for source in simulated[1:]:
            spec["runs"].remove(source)
    config["name"] = name
    config["report"] = {"pdf": False}
    return config


def job_name(process: psutil.Process) -> str:
    """The job script a process runs (``.snakemake/scripts/tmpXXXX.<rule>.py`` -> ``<rule>``), else its name."""
    try:
        command = process.cmdline()
        name = process.name()
    except psutil.Error:
        return "?"
    if "snakemake" in command[1:3]:
        return "snakemake"
    scripts = [Path(part).name for part in command if part.endswith(".py")]
    return re.sub(r"^tmp[^.]*\.", "", scripts[-1]).removesuffix(".py") if scripts else name


class TreeMemory:
    """The peak of the summed RSS (MiB) of a process and its descendants, sampled in a thread, and the
    peak RSS of each job script (by name: a rule's jobs share one entry)."""

    def __init__(self, pid: int, interval: float = 0.2):
        self.root = psutil.Process(pid)
        self.interval = interval
        self.peak_mib = 0.0
        self.per_job: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            total = 0
            try:
                processes = [self.root, *self.root.children(recursive=True)]
            except psutil.Error:
                processes = []
            for process in processes:
                try:
                    rss = process.memory_info().rss
                except psutil.Error:
                    continue
                total += rss
                name = job_name(process)  # not cached by pid: a forked process execs its job later
                self.per_job[name] = max(self.per_job.get(name, 0.0), rss / 2**20)
            self.peak_mib = max(self.peak_mib, total / 2**20)
            self._stop.wait(self.interval)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak_mib


def largest_figure(results: Path) -> tuple[int, str]:
    """The largest side (pixels) of any PNG under ``results``, and that file (relative)."""
    from PIL import Image

    largest, where = 0, ""
    for path in sorted(results.rglob("*.png")):
        with Image.open(path) as image:
            side = max(image.size)
        if side > largest:
            largest, where = side, str(path.relative_to(results))
    return largest, where


def longest_group_cell(results: Path) -> int:
    longest = 0
    for path in sorted((results / "tables" / "leaderboard").glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as handle:
            longest = max([longest, *(len(row["group"]) for row in csv.DictReader(handle))])
    return longest


def run_size(runs: int, datasets: list[str], cores: int, root: Path) -> dict:
    folder = root / f"runs{runs}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    name = f"runs{runs}"
    config_path = folder / "config.yaml"
    config_path.write_text(yaml.safe_dump(scaled_config(runs, datasets, name), sort_keys=False))
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(folder),
        "--configfile",
        str(config_path),
        "--cores",
        str(cores),
    ]
    start = time.perf_counter()
    with open(folder / "snakemake.log", "w", encoding="utf-8") as log:
        process = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
        memory = TreeMemory(process.pid)
        status = process.wait()
        peak = memory.stop()
    seconds = time.perf_counter() - start
    if status != 0:
        tail = (folder / "snakemake.log").read_text(encoding="utf-8", errors="replace")[-3000:]
        print(tail, file=sys.stderr)
        return {"size": runs, "failed": f"snakemake exited with status {status}", "seconds": seconds}
    results = folder / "results" / name
    figure_px, figure = largest_figure(results)
    rules = job_times(folder)
    return {
        "size": runs,
        "seconds": seconds,
        "peak_mib": peak,
        "jobs": sum(entry["jobs"] for entry in rules.values()),
        "largest_figure_px": figure_px,
        "largest_figure": figure,
        "longest_group_cell": longest_group_cell(results),
        "peak_mib_per_job": {name: round(mib, 1) for name, mib in sorted(memory.per_job.items()) if mib > 0},
        "rules": rules,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 100, 300, 1000])
    parser.add_argument("--datasets", nargs="+", default=["Sem16T4E", "Sem16T4C"])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", help="run in this folder (and keep it) instead of a temporary one")
    arguments = parser.parse_args(argv)

    root = Path(arguments.keep) if arguments.keep else Path(tempfile.mkdtemp(prefix="ordeval-runs-scale-"))
    described = machine()
    rows = []
    try:
        for runs in arguments.runs:
            print(f"{runs} runs ({', '.join(arguments.datasets)}), --cores {arguments.cores}, in {root}", flush=True)
            row = run_size(runs, arguments.datasets, arguments.cores, root)
            rows.append(row)
            if "failed" in row:
                print(f"  FAILED: {row['failed']}")
                continue
            print(
                f"  {row['seconds']:.1f} s, {row['jobs']} jobs, peak {row['peak_mib']:.0f} MiB, largest figure "
                f"{row['largest_figure_px']} px ({row['largest_figure']}), longest group cell "
                f"{row['longest_group_cell']}"
            )
            memory = row["peak_mib_per_job"]
            for rule, entry in sorted(row["rules"].items(), key=lambda item: -item[1]["seconds"])[:6]:
                peak = memory.get(rule, memory.get(rule.removesuffix("_group"), float("nan")))
                print(f"    {rule:<34} {entry['jobs']:>3} jobs {entry['seconds']:>7.1f} s  peak {peak:>6.0f} MiB")
    finally:
        if not arguments.keep:
            shutil.rmtree(root, ignore_errors=True)
    measured = {row["size"]: row for row in rows if "failed" not in row}
    checks: dict[str, int | float] = {}
    if 100 in measured and 1000 in measured:
        ratio = measured[1000]["seconds"] / measured[100]["seconds"]
        checks["ratio_1000_over_100"] = ratio
        checks["ratio_target_met"] = int(ratio <= TARGETS["ratio_1000_over_100"])
    if measured:
        checks["peak_mib"] = max(row["peak_mib"] for row in measured.values())
        checks["peak_target_met"] = int(checks["peak_mib"] < TARGETS["peak_mib"])
        checks["figure_px"] = max(row["largest_figure_px"] for row in measured.values())
        checks["figure_target_met"] = int(checks["figure_px"] <= TARGETS["figure_px"])
    for key, value in checks.items():
        if key.endswith("_target_met"):
            print(f"{key}: {'yes' if value else 'NO'}")
    payload = {
        "analysis": "runs_scale",
        "setting": {"datasets": arguments.datasets, "cores": arguments.cores, "report_pdf": False},
        "machine": described,
        "load_average_1min_at_end": os.getloadavg()[0],
        "rows": rows,
        "failed": [row["size"] for row in rows if "failed" in row],
        "targets": TARGETS,
        "checks": checks,
    }
    path = write_results("runs_scale", payload)
    print(f"wrote {path}")
    times = {f"t{size}_s": row["seconds"] for size, row in measured.items()}
    print(key_values({**times, **checks, "failed": len(payload["failed"])}))
    return 0 if measured and not payload["failed"] else 1


if __name__ == "__main__":
    sys.exit(main())
