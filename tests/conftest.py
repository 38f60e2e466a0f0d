"""Shared helpers: paths, the real data in ../shared, a tiny configuration, running the workflow on it, and
the workflow tier (tests under tests/workflow/, marked ``workflow``), whose default tiny pipeline runs once
per test session (fixture ``pipeline``).

The package is imported as installed (``pip install -e .``, or ``PYTHONPATH=src``): no path edits here."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SHARED_RAW = REPO.parent / "shared" / "data" / "raw"


def shared_file(relative: str) -> Path:
    """A file of ../shared/data/raw; the test is skipped where that folder is absent."""
    path = SHARED_RAW / relative
    if not path.is_file():
        pytest.skip(f"real data not available: {path}")
    return path


OC_MEASURES = ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu"]


def tiny_config(name: str = "tiny", classification: bool = False, **overrides) -> dict:
    """A small configuration: two synthetic OQ data sets (SemEval-like and NTCIR-like), few trials;
    with ``classification``, also a small OC data set (tweets of 14 topics, a constant baseline)."""
    config = {
        "name": name,
        "seed": 7,
        "threads": 1,
        "measures": [
            "NMD",
            "RSNOD",
            "RNOD",
            "NVD",
            "RNSS",
            "JSD",
            "DNKT",
            "DNKT_JSD",
            "DNKT_NMD",
            "DNKT_RNOD",
            "RNADW",
            "RNOD2",
            "RNADW2",
        ],
        "agreement": {"ci_level": 0.95},
        "consistency": {"trials": 20, "hsd_trials": 50, "subset_size": 4},
        "significance": {"hsd_trials": 200},
        "datasets": {
            "TinySem": {
                "classes": [-2, -1, 0, 1, 2],
                "gold": {"type": "simulate_tweets", "topics": 12},
                "runs": [
                    {"type": "constant_class", "name": "BL-positive", "class": 1},
                    {"type": "simulate", "systems": 6},
                ],
            },
            "TinyDQ": {
                "classes": [-2, -1, 0, 1, 2],
                "gold": {"type": "simulate_annotators", "topics": 14, "annotators": 5, "score": "A"},
                "runs": [
                    {"type": "popularity", "name": "BL-popularity-C"},
                    {"type": "uniform", "name": "BL-uniform-C"},
                    {"type": "simulate", "systems": 4, "english_variants": 2},
                    {"type": "popularity", "name": "BL-popularity-E"},
                    {"type": "uniform", "name": "BL-uniform-E"},
                ],
            },
        },
    }
    if classification:
        config["measures"] = config["measures"] + OC_MEASURES
        config["datasets"]["TinyOC"] = {
            "task": "classification",
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "simulate_items", "topics": 14, "items_min": 10, "items_max": 60},
            "runs": [
                {"type": "constant_class", "name": "BL-neutral", "class": 0},
                {"type": "simulate", "systems": 6},
            ],
        }
    config.update(overrides)
    return config


def run_workflow(
    workdir: Path, config: dict, *arguments: str, check: bool = True, timeout: float | None = None
) -> subprocess.CompletedProcess:
    """Run the project's Snakefile in ``workdir`` on ``config`` (written to workdir/config.yaml); a run
    longer than ``timeout`` seconds is killed and fails the test."""
    workdir.mkdir(parents=True, exist_ok=True)
    config_path = workdir / "config.yaml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(config_path),
        "--cores",
        "2",
        *arguments,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        output = f"{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
        raise AssertionError(f"snakemake failed ({result.returncode}):\n{output}")
    return result


# --------------------------------------------------------------------------- the workflow tier

#: A user module registering two measures, one where lower and one where higher is better: they must
#: be scored and analysed everywhere with no other configuration.
#: A user module registering two OQ measures, ``{low}`` (lower is better) and ``{high}`` (higher is better).
PLUGIN_TEMPLATE = '''
import numpy as np

from ordeval.tasks.quantification import register


@register("{low}", display="MaxDiff", description="largest absolute difference of one class")
def max_difference(estimate, gold):
    """max_i |p_i - p*_i| (lower is better)."""
    return np.abs(estimate - gold).max(axis=-1)


@register("{high}", lower_is_better=False, description="probability mass the estimate shares with the gold")
def shared_mass(estimate, gold):
    """sum_i min(p_i, p*_i) (1 - NVD): higher is better."""
    return np.minimum(estimate, gold).sum(axis=-1)
'''
PLUGIN = PLUGIN_TEMPLATE.format(low="MAXDIFF", high="OVERLAP")


@dataclass
class Run:
    workdir: Path
    config: dict
    results: Path
    output: str = ""  #: what the cold run printed (stdout and stderr)

    def again(self, *arguments: str, check: bool = True):
        return run_workflow(self.workdir, self.config, *arguments, check=check)


def pytest_collection_modifyitems(items):
    for item in items:
        if "/workflow/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.workflow)


@pytest.fixture(scope="session")
def pipeline(tmp_path_factory) -> Run:
    """The whole pipeline on the tiny configuration (two OQ data sets, one OC data set, a plugin with
    two measures, every default), run once per session."""
    workdir = tmp_path_factory.mktemp("pipeline")
    (workdir / "my_measures.py").write_text(PLUGIN)
    config = tiny_config(classification=True, plugins=["my_measures.py"])
    config["measures"] = config["measures"] + ["MAXDIFF", "OVERLAP"]
    done = run_workflow(workdir, config)
    return Run(workdir, config, workdir / "results" / config["name"], done.stdout + done.stderr)


# --------------------------------------------------------------------------- jobs run in this process


def build_and_score(plan) -> None:
    """Run the jobs of rules prepare_data and score_runs of ``plan`` in this process, with the inputs,
    outputs and params their rules give them (workflow/rules/data.smk, scoring.smk); paths are relative
    to the current folder."""
    from ordeval.jobs import Job, prepare_data, score_runs

    names = list(plan.datasets)
    provenance = [plan.path("data/provenance", dataset=name) for name in names]
    settings = plan.dataset_settings()
    params = {"datasets": settings, "data_root": str(plan.data_root), "seed": plan.config["seed"]}
    prepare_data.run(Job("prepare_data", output={"provenance": provenance}, params=params))
    means = [plan.path("scores/means", dataset=name) for name in names]
    params = {"datasets": settings, "plugins": plan.plugin_files}
    score_runs.run(Job("score_runs", input={"provenance": provenance}, output={"means": means}, params=params))
