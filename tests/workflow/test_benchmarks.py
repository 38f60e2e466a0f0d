"""The benchmark scripts still run: each at a tiny size, its numbers written to a temporary folder
(``ORDEVAL_BENCHMARK_RESULTS``) so that the recorded results in benchmarks/results are left alone. They
check their own agreement (p-values, taus, the C kernel's ranges) and exit 1 when it fails. In the slow
tier: each starts numba and compiles or loads its kernels."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import numpy as np
from conftest import REPO, shared_file, tiny_config

from ordeval.workflow.config import validate

BENCHMARKS = REPO / "benchmarks"


def run(script: str, tmp_path, *arguments: str) -> dict:
    environment = dict(os.environ, ORDEVAL_BENCHMARK_RESULTS=str(tmp_path / "results"))
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
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
    """benchmarks/realism.py at a tiny size, two seeds: every target gets a row, its bands and its share of seeds;
    the real 2016 fields' figures where ../shared has them."""
    values = run(
        "realism.py", tmp_path, "--seed", "5", "--seed", "6", "--hsd-trials", "50", "--trials", "20", "--resamples", "3"
    )
    assert values["seeds"] == "2" and values["crashed"] == "0" and int(values["targets"]) >= 20
    with open(tmp_path / "results" / "realism.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == [
        "figure",
        "source",
        "published",
        "real_2016",
        "real_resampled_5_95",
        "target",
        "median",
        "band_5_95",
        "met_percent",
        "seeds",
    ]
    assert len(rows) >= int(values["targets"]) and all(row["seeds"] == "2" for row in rows)
    dp = next(row for row in rows if row["figure"].startswith("DP RNOD (%)"))
    assert dp["source"] == "Sakai, CIKM 2021 LQ workshop, Table 3" and dp["published"] == "47.000"
    assert all("seed" not in row["source"] for row in rows)  # sources are papers, not seeds
    if (REPO.parent / "shared" / "data" / "raw" / "Sem16T4CE" / "official").is_dir():
        tau = next(row for row in rows if row["figure"].startswith("Sem16T4C mean tau, group A"))
        assert tau["real_2016"] == tau["published"] == "-0.040"  # the real runs give the published table
    seeds = (tmp_path / "results" / "realism_seeds.csv").read_text().splitlines()
    assert seeds[0] == "seed,figure,value" and {line.split(",")[0] for line in seeds[1:]} == {"5", "6"}
    assert (tmp_path / "results" / "realism.md").stat().st_size > 0


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


def test_fitting_the_simulators_to_the_real_2016_fields(tmp_path):
    """benchmarks/fit_simulators.py at one round and the fitted item difficulty (no search over it): a profile
    per official run, settings the configuration accepts; the subtask E profiles matched to their runs' NMD
    and DNKT come nearer the real DNKT than least squares alone (pkudblab: 0.145 against the real 0.116)."""
    shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskC_test_gold.txt")
    values = run(
        "fit_simulators.py",
        tmp_path,
        "--rounds",
        "1",
        "--check-seeds",
        "2",
        "--item-difficulty",
        "0.3",
        "--moment-sims",
        "4",
    )
    assert (
        values["profiles_c"] == "11" and values["profiles_e"] == "11" and float(values["worst_rank_difference"]) < 0.3
    )
    fitted = json.loads((tmp_path / "results" / "fit_simulators.json").read_text())
    moments = fitted["moments"]
    assert len(moments) == 11 and fitted["moment_sims"] == 4
    gaps = {
        kind: np.mean([abs(v["DNKT"][kind] - v["DNKT"]["real"]) for v in moments.values()])
        for kind in ("least_squares", "matched")
    }
    assert gaps["matched"] < gaps["least_squares"], gaps
    assert "| pkudblab | 0.0828 |" in (tmp_path / "results" / "fit_simulators.md").read_text()
    config = tiny_config(classification=True)
    for dataset, fitted_to in (("TinyOC", "Sem16T4C"), ("TinySem", "Sem16T4E")):
        settings = {k: v for k, v in fitted["runs"][fitted_to].items() if k not in ("fitted_to", "noise_sd_factor")}
        config["datasets"][dataset]["runs"][1].update(settings)
    validate(config)


def test_the_subtask_e_simulator_run_by_run(tmp_path):
    """benchmarks/fit_diagnostics.py with two simulations a profile and one field fitted again: every official
    run beside its profile, the real numbers the official ones (QCRI's NMD is its EMD 0.243 / (K - 1)), the
    simulated NMD near the real one (the profiles are fitted to it), and the recovery of every profile."""
    shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt")
    values = run("fit_diagnostics.py", tmp_path, "--sims", "2", "--fields", "1")
    assert values["runs"] == "11" and float(values["largest_nmd_gap"]) < 0.03
    result = json.loads((tmp_path / "results" / "fit_diagnostics.json").read_text())
    assert len(result["per_run"]) == len(result["recovery"]) == 11
    assert abs(4 * result["per_run"]["QCRI"]["NMD"]["real"] - 0.243) < 0.0005
    for run_values in result["per_run"].values():
        assert all(0 <= cell["real"] <= 1 and 0 <= cell["simulated"] <= 1 for cell in run_values.values())
    assert all(len(parts["cut points (noise sds)"]["mean"]) == 4 for parts in result["recovery"].values())
    assert "| pkudblab |" in (tmp_path / "results" / "fit_diagnostics.md").read_text()


def test_fetch_benchmark(tmp_path):
    """ordeval fetch from a mirror on 127.0.0.1 and from a local copy, the no-op fetch, and planning's check of the
    registered files, once each, on the real data."""
    data = shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt").parents[3]
    values = run("fetch.py", tmp_path, "--data", str(data), "--repeats", "1")
    assert int(values["plan_files_checked"]) == 29 and float(values["check_registered_ms"]) > 0
    (row,) = json.loads((tmp_path / "results" / "fetch.json").read_text())["rows"]
    assert row["http_library_s"] > 0 and row["noop_library_s"] > 0 and row["from_library_s"] > 0
