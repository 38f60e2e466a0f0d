"""Benchmark: the default pipeline, cold (``snakemake --cores 2`` with no results) and a no-op re-run.

    python benchmarks/pipeline.py [--cores 2] [--keep DIR] [-- extra snakemake arguments]

Run from the repository root. The repository (without ``results/``, ``.snakemake/`` and ``.git/``) is
copied to a temporary folder, and Snakemake runs there with ``PYTHONPATH`` set to the copy's ``src``
(so that the copy's code runs, whatever ``pip install -e`` points at). The numba cache beside the
sources (``__pycache__``) is copied too: the cold run measures the pipeline, not the compilation of the
kernels (run it once before, or expect a few seconds more). Each job's time comes from Snakemake's
own records: the wall time of the whole run, the number of jobs, and per rule the sum of the job
wall times recorded in ``.snakemake/metadata``. On a shared machine, compare runs made one after the other.

The no-op re-run is timed ``--repeats`` times (the fastest counts), and so is the honest baseline, a
trivial one-rule workflow run the same way: ``noop_ratio`` is the no-op run over that workflow's, and
``noop_ratio_params`` over the same workflow with one ``params`` entry (Snakemake imports pandas to
record the params of any rule that has them: about 0.15 s that every workflow with params pays).

The floor (``floor.py``): the same jobs' library calls in one Python process, in dependency order, writing
the same files in a second copy (imports paid once, no process start-up, no scheduler). ``cold_over_floor``
is the cold run over it, and ``startup_per_job`` what a job costs in the pipeline beyond its work: the jobs'
summed wall times minus the floor's, per job.

Targets (issues 33, 43): cold at most 40 s and at most 1.5x the floor, no-op re-run at most 1.5x the trivial
workflow. Writes ``results/pipeline.json`` and prints, as its last line, ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import key_values, machine, write_results

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"cold_seconds": 40.0, "cold_over_floor": 1.5, "noop_ratio": 1.5}
#: The baseline: one rule, one output (and the same with one params entry).
TRIVIAL = 'rule all:\n    input: "a.txt"\n\n\nrule a:\n    output: "a.txt"\n{params}    shell: "echo a > {{output}}"\n'
_IGNORE = shutil.ignore_patterns(".snakemake", ".git", ".venv", ".pytest_cache", ".ruff_cache", "*.egg-info")


def IGNORE(folder: str, names: list[str]) -> set[str]:
    """What the copy leaves out: the results folders (the repository's and the benchmarks'), not the package's
    ``ordeval.results``, and the tools' caches."""
    left = set(_IGNORE(folder, names))
    if "results" in names and not Path(folder, "__init__.py").is_file() and Path(folder).name != "ordeval":
        left.add("results")
    return left


def snakemake(copy: Path, cores: int, extra: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    environment = dict(os.environ, PYTHONPATH=str(copy / "src"))
    command = [sys.executable, "-m", "snakemake", "--cores", str(cores), *extra]
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=copy, env=environment, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, completed


def fastest(folder: Path, cores: int, extra: list[str], repeats: int) -> float:
    """The fastest of ``repeats`` runs of Snakemake in ``folder`` that have nothing to do."""
    times = []
    for _ in range(repeats):
        seconds, completed = snakemake(folder, cores, extra)
        if completed.returncode != 0 or "Nothing to be done" not in completed.stdout + completed.stderr:
            raise RuntimeError(f"{folder}: not a no-op run:\n{completed.stderr[-4000:]}")
        times.append(seconds)
    return min(times)


def trivial_noop(root: Path, cores: int, repeats: int, params: bool) -> float:
    """The fastest no-op run of the trivial one-rule workflow (built once first)."""
    folder = root / ("trivial_params" if params else "trivial")
    folder.mkdir(parents=True, exist_ok=True)
    text = TRIVIAL.format(params="    params:\n        x=1,\n" if params else "")
    (folder / "Snakefile").write_text(text)
    _, built = snakemake(folder, cores, [])
    if built.returncode != 0:
        raise RuntimeError(built.stderr[-4000:])
    return fastest(folder, cores, [], repeats)


def floor(root: Path, repo: str) -> dict:
    """The one-process floor (``floor.py``) in a fresh copy of ``repo``: its timings."""
    copy = root / "floor"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(repo, copy, ignore=IGNORE)
    out = root / "floor.json"
    environment = dict(os.environ, PYTHONPATH=str(copy / "src"))
    script = Path(__file__).resolve().parent / "floor.py"
    completed = subprocess.run(
        [sys.executable, str(script), str(copy), "--json", str(out)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the floor failed:\n{completed.stderr[-4000:]}")
    return json.loads(out.read_text())


def job_times(copy: Path) -> dict[str, dict]:
    """Per rule: jobs and the sum of their wall times, from Snakemake's metadata (one record per output
    file, with the job's hash, start and end time)."""
    jobs: dict[tuple[str, int], list[float]] = {}
    for path in (copy / ".snakemake" / "metadata").glob("*"):
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        rule, start, end = record.get("rule"), record.get("starttime"), record.get("endtime")
        if rule is None or start is None or end is None:
            continue
        span = jobs.setdefault((rule, record.get("job_hash")), [start, end])
        span[0], span[1] = min(span[0], start), max(span[1], end)
    rules: dict[str, dict] = {}
    for (rule, _), (start, end) in jobs.items():
        entry = rules.setdefault(rule, {"jobs": 0, "seconds": 0.0})
        entry["jobs"] += 1
        entry["seconds"] = round(entry["seconds"] + end - start, 2)
    return dict(sorted(rules.items()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", help="copy the repository here (and keep it) instead of a temporary folder")
    parser.add_argument("--repo", default=str(REPO), help="the repository to copy (default: this one)")
    parser.add_argument("--name", default="pipeline", help="results/<name>.json")
    parser.add_argument("--repeats", type=int, default=5, help="no-op runs timed (the fastest counts)")
    parser.add_argument("extra", nargs="*", help="further snakemake arguments (after --)")
    arguments = parser.parse_args(argv)

    root = Path(arguments.keep) if arguments.keep else Path(tempfile.mkdtemp(prefix="ordeval-pipeline-"))
    copy = root / "ordeval"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(arguments.repo, copy, ignore=IGNORE)
    print(f"default pipeline, --cores {arguments.cores}, in {copy}")
    described = machine()  # the load average before the runs
    cold, completed = snakemake(copy, arguments.cores, arguments.extra)
    if completed.returncode != 0:
        print(completed.stderr[-4000:], file=sys.stderr)
        return 1
    try:
        noop = fastest(copy, arguments.cores, arguments.extra, arguments.repeats)
        trivial = trivial_noop(root, arguments.cores, arguments.repeats, params=False)
        trivial_params = trivial_noop(root, arguments.cores, arguments.repeats, params=True)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    try:
        floor_times = floor(root, arguments.repo)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    ratio, ratio_params = noop / trivial, noop / trivial_params
    per_rule = job_times(copy)
    jobs = sum(entry["jobs"] for entry in per_rule.values())  # jobs with outputs (not the target rule)
    floor_seconds = floor_times["seconds"]
    summed = sum(entry["seconds"] for entry in per_rule.values())
    startup = (summed - floor_seconds) / max(1, jobs)
    print(f"cold: {cold:.1f} s ({jobs} jobs); no-op re-run: {noop:.2f} s (fastest of {arguments.repeats})")
    print(
        f"one-process floor: {floor_seconds:.1f} s (cold / floor {cold / floor_seconds:.2f}); the jobs' summed "
        f"time {summed:.1f} s: {startup:.2f} s per job beyond the floor's work"
    )
    print(
        f"trivial one-rule workflow: {trivial:.2f} s ({ratio:.2f}x); with one params entry: "
        f"{trivial_params:.2f} s ({ratio_params:.2f}x)"
    )
    print(f"  {'rule':<32} jobs  pipeline  floor  per job beyond the floor")
    for rule, entry in sorted(per_rule.items(), key=lambda item: -item[1]["seconds"]):
        in_floor = floor_times["rules"].get(rule, {}).get("seconds", 0.0)
        entry["floor_seconds"] = in_floor
        beyond = (entry["seconds"] - in_floor) / entry["jobs"]
        print(f"  {rule:<32} {entry['jobs']:>4} {entry['seconds']:>8.1f} {in_floor:>6.1f} {beyond:>8.2f}")
    checks = {
        "cold_target_met": int(cold <= TARGETS["cold_seconds"]),
        "cold_over_floor_target_met": int(cold / floor_seconds <= TARGETS["cold_over_floor"]),
        "noop_ratio_target_met": int(ratio <= TARGETS["noop_ratio"]),
    }
    payload = {
        "analysis": "pipeline",
        "setting": {"repo": arguments.repo, "cores": arguments.cores, "extra": arguments.extra},
        "machine": described,
        "load_average_1min_at_end": os.getloadavg()[0],
        "cold_seconds": cold,
        "noop_seconds": noop,
        "noop_repeats": arguments.repeats,
        "trivial_noop_seconds": trivial,
        "trivial_params_noop_seconds": trivial_params,
        "noop_ratio": ratio,
        "noop_ratio_params": ratio_params,
        "jobs": jobs,
        "floor_seconds": floor_seconds,
        "cold_over_floor": cold / floor_seconds,
        "jobs_summed_seconds": summed,
        "startup_per_job_seconds": startup,
        "floor_job_seconds": floor_times["job_seconds"],
        "rules": per_rule,
        "targets": TARGETS,
    }
    path = write_results(arguments.name, payload)
    print(f"wrote {path}")
    print(
        key_values(
            {
                "cold_s": cold,
                "floor_s": floor_seconds,
                "cold_over_floor": cold / floor_seconds,
                "startup_per_job_s": startup,
                "noop_s": noop,
                "noop_ratio": ratio,
                "jobs": jobs,
                **checks,
            }
        )
    )
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
