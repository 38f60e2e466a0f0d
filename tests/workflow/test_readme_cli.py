"""The "Command line" examples of docs/organiser.md run as written (on the public SemEval-2016 data; the last one
starts Snakemake for a dry run, hence the workflow tier)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import REPO, SHARED_RAW, no_shared_data, project_copy, run_as_written

pytestmark = pytest.mark.workflow


def _command_line_block() -> str:
    readme = (REPO / "docs" / "organiser.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Command line") :]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def test_the_command_line_examples_run_as_written(tmp_path):
    if not (SHARED_RAW / "Sem16T4CE").is_dir():
        pytest.skip(no_shared_data(SHARED_RAW / "Sem16T4CE"))
    # a project folder of its own (links to the checkout's Snakefile, configurations, ...): the outputs land in
    # tmp_path, never in the checkout; its resources/ the real data, as after `ordeval fetch`
    work = project_copy(tmp_path / "repo", data=True)
    result = run_as_written(_command_line_block(), work, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    written = sorted(path.name for path in work.iterdir() if not path.is_symlink())
    assert written == [".snakemake", "sem16-board", "sem16-pooled", "sem16-pooled.json", "sem16-scores"]  # as said
    assert result.stdout.startswith("| Measure | Task |")  # ordeval measures --format markdown
    assert "# Leaderboard: twitter-2016test-CE" in result.stdout
    document = json.loads((work / "sem16-pooled.json").read_text())
    assert document["leaderboard"]["protocol"] == "pooled" and document["runs"] == ["PotTS", "BL-neutral"]
    assert (work / "sem16-board" / "leaderboard.md").is_file()
    assert "dry run:" in result.stdout + result.stderr


def test_the_official_semeval_2016_tables_print_as_the_readme_says(tmp_path):
    """The README's "The official SemEval-2016 results" block prints both official tables (Nakov et al.
    2016), the organisers' results files row for row."""
    official = SHARED_RAW / "Sem16T4CE" / "official"
    if not official.is_dir():
        pytest.skip(f"real data not available: {official}")
    readme = (REPO / "docs" / "replicator.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The official SemEval-2016 results") :]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "resources").symlink_to(SHARED_RAW)  # as after `ordeval fetch`
    result = run_as_written(block, tmp_path / "repo", timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    printed = [line.split("\t") for line in result.stdout.splitlines() if not line.startswith("run\t")]
    expected = []
    for subtask in "CE":
        text = (official / "results" / f"results-{subtask}.txt").read_text(encoding="utf-8")
        expected += [line.rstrip("\t").split("\t") for line in text.splitlines() if line.strip()]
    assert [["_baseline" if row[0].startswith("baseline") else row[0], *row[1:]] for row in printed] == expected
