"""The README's examples for measure designers run as written from the repository's folder ("Evaluate a
new measure", "How many topics do I need"), and the report row the README quotes is what the command
writes. They run in a project folder of their own (links to the checkout's Snakefile, rules, configurations,
examples), so that their results/ never land in the checkout."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO, project_copy, run_as_written

pytestmark = pytest.mark.workflow


def section(title: str) -> str:
    readme = (REPO / "docs" / "measure-designer.md").read_text(encoding="utf-8")
    start = readme.index(f"## {title}")
    end = readme.find("\n## ", start + 3)
    return readme[start : end if end >= 0 else len(readme)]


def run_block(text: str, project) -> subprocess.CompletedProcess:
    return run_as_written(re.search(r"```bash\n(.*?)```", text, re.S).group(1), project)


def test_evaluate_a_new_measure_as_the_readme_shows_it(tmp_path):
    text = section("Evaluate a new measure")
    project = project_copy(tmp_path / "project")
    done = run_block(text, project)
    assert done.returncode == 0, done.stderr[-3000:]
    report = project / "results" / "synthetic-my_measure" / "measures" / "MSE_M" / "report.md"
    quoted = [line for line in text.splitlines() if line.startswith("| Sem16T4C |")]
    assert quoted and all(line in report.read_text() for line in quoted)


def test_how_many_topics_as_the_readme_shows_it(tmp_path):
    project = project_copy(tmp_path / "project")
    scores = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "scores"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert scores.returncode == 0, scores.stderr[-3000:]
    done = run_block(section("How many topics do I need"), project)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[0].split()[:3] == ["measure", "design", "alpha"]
