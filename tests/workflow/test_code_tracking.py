"""Code tracking through a public mechanism: every rule carries the digest of the code its script reaches as a
params entry (``code``), so that editing a library module re-runs exactly the jobs whose code reaches it (and,
through their outputs, what reads them), and nothing is written to find out; a project that moves (copied to
another folder with its results) has nothing to do."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT_FILES, REPO, job_counts, tiny_config

pytestmark = pytest.mark.workflow


def snakemake(project: Path, environment: dict, *arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "snakemake", "--configfile", "config.yaml", "--cores", "2", *arguments]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=1200, env=environment)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def planned_jobs(done: subprocess.CompletedProcess) -> set[str]:
    """The rules of the jobs a dry run would run (none when nothing is to be done)."""
    counts = job_counts(done.stdout + done.stderr)
    if counts is None:
        assert "Nothing to be done" in done.stdout + done.stderr, done.stdout[-2000:] + done.stderr[-2000:]
        return set()
    return set(counts)


def project_with_package(folder: Path) -> tuple[Path, dict]:
    """A project folder of its own with a copy of the package (edited here), run with that copy."""
    folder.mkdir(parents=True)
    for name in PROJECT_FILES:
        (folder / name).symlink_to(REPO / name)
    shutil.copytree(REPO / "src", folder / "src", ignore=shutil.ignore_patterns("*.pyc", "*.nbi", "*.nbc"))
    config = tiny_config("tracked", report={"pdf": False})
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    return folder, {**os.environ, "PYTHONPATH": str(folder / "src")}


def test_editing_a_module_reruns_exactly_the_jobs_whose_code_reaches_it(tmp_path):
    project, environment = project_with_package(tmp_path / "project")
    snakemake(project, environment, "significance", "consistency")
    assert planned_jobs(snakemake(project, environment, "-n", "significance", "consistency")) == set()
    hsd = project / "src" / "ordeval" / "stats" / "hsd.py"
    hsd.write_text(hsd.read_text() + "\n# an edit\n")
    dry = snakemake(project, environment, "-n", "significance", "consistency")
    rerun = planned_jobs(dry)
    assert {"significance_pvalues", "consistency_taus"} <= rerun  # the jobs that run the HSD, and what reads them
    assert not rerun & {"prepare_data", "score_runs", "score_table", "agreement_dataset"}, rerun
    assert "params changed" in (dry.stdout + dry.stderr).lower().replace("have ", ""), dry.stdout[-2000:]


def test_a_moved_project_has_nothing_to_do(tmp_path):
    """The whole project (its results and Snakemake's records) copied to another folder, the files' times kept:
    every path the rules name is relative to the project, so nothing is to be done there."""
    project, environment = project_with_package(tmp_path / "first")
    snakemake(project, environment, "significance")
    moved = tmp_path / "elsewhere" / "second"
    moved.parent.mkdir()
    shutil.copytree(project, moved, symlinks=True)
    environment = {**environment, "PYTHONPATH": str(moved / "src")}
    assert planned_jobs(snakemake(moved, environment, "-n", "significance")) == set()
