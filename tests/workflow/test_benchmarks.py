"""The benchmark scripts still run: each at a tiny size, its numbers written to a temporary folder
(``ORDEVAL_BENCHMARK_RESULTS``) so that the recorded results in benchmarks/results are left alone. They
check their own agreement (p-values, taus, the C kernel's ranges) and exit 1 when it fails. In the slow
tier: each starts numba and compiles or loads its kernels."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO

BENCHMARKS = REPO / "benchmarks"


def run(script: str, tmp_path, *arguments: str) -> dict:
    environment = dict(os.environ, ORDEVAL_BENCHMARK_RESULTS=str(tmp_path / "results"))
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        cwd=REPO, env=environment, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    last = completed.stdout.strip().splitlines()[-1]  # key=value pairs
    return dict(pair.split("=", 1) for pair in last.split())


def test_recorded_results_are_not_touched(tmp_path):
    recorded = {path.name: path.stat().st_mtime_ns for path in (BENCHMARKS / "results").iterdir()}
    run("tau.py", tmp_path, "--sizes", "1000x13_n22", "--pairs", "200", "--repeats", "1", "--scipy-pairs", "50")
    assert {path.name: path.stat().st_mtime_ns for path in (BENCHMARKS / "results").iterdir()} == recorded
    assert json.loads((tmp_path / "results" / "tau.json").read_text())["rows"][0]["pairs"] == 200


def test_hsd_benchmark(tmp_path):
    values = run("hsd.py", tmp_path, "--sizes", "default", "--trials", "300", "--repeats", "1")
    assert values["p_values_agree"] == "1"
    (row,) = json.loads((tmp_path / "results" / "hsd.json").read_text())["rows"]
    assert row["trials"] == 300 and row["ordeval_s"] > 0 and row["numpy_over_ordeval"] > 0
    assert row["c_ranges_identical"] in (True, None)  # None: no C compiler with OpenMP here


def test_consistency_scale_benchmark(tmp_path):
    sizes = ["--runs", "20", "30", "--topics", "40", "--trials", "30", "--hsd-trials", "50"]
    run("consistency_scale.py", tmp_path, *sizes)
    result = json.loads((tmp_path / "results" / "consistency_scale.json").read_text())
    assert [row["size"] for row in result["rows"]] == [20, 30] and not result["failed"]
    assert all(row["complete_trials"] == 30 and row["peak_mib"] > 0 for row in result["rows"])
    assert (tmp_path / "results" / "scale.png").stat().st_size > 0


def test_scoring_scale_benchmark(tmp_path):
    """A small data set (one thread) and a larger one (threads where configured), as rule score_runs runs them."""
    run("scoring_scale.py", tmp_path, "--topics", "40", "8000", "--systems", "18")
    result = json.loads((tmp_path / "results" / "scoring_scale.json").read_text())
    assert [row["size"] for row in result["rows"]] == [40, 8000] and not result["failed"]
    assert all(row["runs"] == 20 and row["measures"] == 13 for row in result["rows"])  # 18 simulated + 2 baselines
    assert [row["runs"] for row in result["numpy_baseline"]] == [20, 20]


def test_realism_table(tmp_path):
    """benchmarks/realism.py at a tiny size, two seeds: every published figure gets a row and a value."""
    values = run("realism.py", tmp_path, "--seed", "5", "--seed", "6", "--hsd-trials", "50", "--trials", "20")
    assert values["seed"] == "5" and int(values["targets"]) >= 15 and 0 <= int(values["met"]) <= int(values["targets"])
    lines = (tmp_path / "results" / "realism.csv").read_text().splitlines()
    assert lines[0].split(",")[4:6] == ["seed 5", "seed 6"] and len(lines) == 19
    assert "DP RNOD (%)" in lines[3] and (tmp_path / "results" / "realism.md").stat().st_size > 0


def test_runs_scale_benchmark(tmp_path):
    """The whole pipeline on one OQ and one OC data set, at a tiny number of runs."""
    values = run("runs_scale.py", tmp_path, "--runs", "5", "--keep", str(tmp_path / "runs"))
    result = json.loads((tmp_path / "results" / "runs_scale.json").read_text())
    (row,) = result["rows"]
    assert row["size"] == 5 and not result["failed"] and values["failed"] == "0"
    assert {"leaderboard_tables", "dataset_figures"} <= set(row["rules"])
    assert any(rule.startswith("score_runs") for rule in row["rules"])  # alone or in its rule's group job
    assert 0 < row["peak_mib"] < 2048 and 0 < row["largest_figure_px"] <= 4000
    assert values["figure_target_met"] == "1"
    for dataset in ("Sem16T4E", "Sem16T4C"):  # five runs in all, baselines included
        board = tmp_path / "runs" / "runs5" / "results" / "runs5" / "tables" / "leaderboard" / f"{dataset}.csv"
        assert len({line.split(",")[2] for line in board.read_text().splitlines()[1:]}) == 5
