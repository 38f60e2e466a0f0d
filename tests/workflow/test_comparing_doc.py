"""docs/comparing.md's commands run as written: record a reference after a run, stage it with git, compare it
with the results, compare two results folders exactly, record it again -- in a project folder of its own whose
configuration is a small one named ``synthetic`` (so that ``results/synthetic`` and ``reference/synthetic`` are
the paths the document writes) and whose git repository is its own."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml
from conftest import PROJECT_FILES, REPO, run_as_written, tiny_config

pytestmark = pytest.mark.workflow

SECTION = "## `ordeval diff` and the recorded reference"


def _blocks() -> list[str]:
    """The section's ```bash blocks, in the order the document gives them."""
    text = (REPO / "docs" / "comparing.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.find("\n## ", 1)] if "\n## " in section[1:] else section
    return re.findall(r"```bash\n(.*?)```", section, re.S)


def test_the_comparing_commands_run_as_written(tmp_path):
    compare, record = _blocks()  # the document compares first, then shows how a reference is recorded
    work = tmp_path / "repo"
    work.mkdir()
    for name in PROJECT_FILES:
        if name != "config" and (REPO / name).exists():
            (work / name).symlink_to(REPO / name)
    config = tiny_config("synthetic", report={"pdf": False})
    del config["datasets"]["TinyDQ"]  # one data set: the commands, not the analyses, are under test
    (work / "config").mkdir()
    (work / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(work)], check=True)

    recorded = run_as_written(record, work)
    assert recorded.returncode == 0, recorded.stderr[-3000:]
    reference = work / "reference" / "synthetic"
    assert (reference / "reference.json").is_file()
    staged = subprocess.run(
        ["git", "diff", "--staged", "--name-only"], cwd=work, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "reference/synthetic/reference.json" in staged
    assert any(name.startswith("reference/synthetic/tables/") and name.endswith(".csv") for name in staged)

    # the second command compares with another checkout's results: here a copy of these
    shutil.copytree(work / "results" / "synthetic", tmp_path / "other" / "results" / "synthetic")
    compared = run_as_written(compare, work)
    assert compared.returncode == 0, compared.stdout[-3000:] + compared.stderr[-3000:]
    verdicts = [line for line in compared.stdout.splitlines() if line.startswith(("EQUAL", "NOT EQUAL"))]
    assert len(verdicts) == 2 and all(line.startswith("EQUAL") for line in verdicts), compared.stdout
    assert "reference/synthetic: reference of results/synthetic" in compared.stdout + compared.stderr
