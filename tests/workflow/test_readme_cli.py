"""The README's "Command line" examples run as written (on the public SemEval-2016 data; the last one
starts Snakemake for a dry run, hence the workflow tier)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, SHARED_RAW, no_shared_data

pytestmark = pytest.mark.workflow


def _command_line_block() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Command line") :]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def test_the_command_line_examples_run_as_written(tmp_path):
    if not (SHARED_RAW / "Sem16T4CE").is_dir():
        pytest.skip(no_shared_data(SHARED_RAW / "Sem16T4CE"))
    # a folder laid out as the checkout (config/, ../shared/data/raw) so that the outputs land in tmp_path
    work = tmp_path / "repo"
    work.mkdir()
    (work / "config").symlink_to(REPO / "config")
    (tmp_path / "shared").symlink_to(REPO.parent / "shared")
    block = _command_line_block().replace("ordeval ", f"{sys.executable} -m ordeval ")
    result = subprocess.run(["bash", "-e", "-c", block], cwd=work, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONHASHSEED": "0"})  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("| Measure | Task |")  # ordeval measures --format markdown
    assert "# Leaderboard: twitter-2016test-CE" in result.stdout
    document = json.loads((work / "sem16-pooled.json").read_text())
    assert document["leaderboard"]["protocol"] == "pooled" and document["runs"] == ["PotTS", "BL-neutral"]
    assert (work / "sem16-board" / "leaderboard.md").is_file()
    assert "dry run:" in result.stdout + result.stderr
