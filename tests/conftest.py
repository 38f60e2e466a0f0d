"""Shared helpers: paths, the real data in ../shared, a tiny configuration, and running the workflow on it.

The package is imported as installed (``pip install -e .``, or ``PYTHONPATH=src``): no path edits here."""

from __future__ import annotations

import subprocess
import sys
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


def tiny_config(name: str = "tiny", **overrides) -> dict:
    """A small configuration: two synthetic data sets (SemEval-like and NTCIR-like), few trials."""
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
    config.update(overrides)
    return config


def run_workflow(workdir: Path, config: dict, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the project's Snakefile in ``workdir`` on ``config`` (written to workdir/config.yaml)."""
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
    result = subprocess.run(command, capture_output=True, text=True)
    if check and result.returncode != 0:
        output = f"{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
        raise AssertionError(f"snakemake failed ({result.returncode}):\n{output}")
    return result
