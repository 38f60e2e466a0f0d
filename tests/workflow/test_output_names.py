"""Names that the pipeline extends into file names cannot make two outputs one path (issue 45, class 4): the rules
list every output of a configuration (each stage's `made(rules.<rule>, ...)`), and the Snakefile refuses two with
one path, or paths that differ only in case, in one line naming the configuration key to change, before any job
(ordeval.io.names.check_paths; was a 33-line AmbiguousRuleException)."""

from __future__ import annotations

import copy
import sys

import pytest
import yaml
from conftest import run_workflow, tiny_config

from ordeval.cli import main

pytestmark = pytest.mark.workflow


def with_dataset(config: dict, name: str, like: str) -> dict:
    config = copy.deepcopy(config)
    config["datasets"][name] = copy.deepcopy(config["datasets"][like])
    return config


def refusal(tmp_path, config) -> str:
    """The one line the Snakefile ends a dry run of ``config`` with."""
    done = run_workflow(tmp_path / "project", config, "--dry-run", check=False)
    assert done.returncode != 0, done.stdout[-2000:]
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("ordeval: ")]
    assert len(lines) == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Job stats" not in done.stdout
    return lines[0]


def test_a_data_set_named_like_another_ones_pooled_leaderboard_is_refused_in_one_line(tmp_path):
    """The case of the issue: ``TinyOC_pooled`` beside the OC set ``TinyOC``."""
    config = with_dataset(tiny_config(classification=True), "TinyOC_pooled", "TinyOC")
    assert refusal(tmp_path, config) == (
        "ordeval: configuration error: config key datasets.TinyOC_pooled: "
        "results/tiny/tables/leaderboard/TinyOC_pooled.csv would be written twice: as leaderboard_tables of data set "
        "'TinyOC_pooled' and as leaderboard_pooled of data set 'TinyOC'; rename data set 'TinyOC_pooled'"
    )


def test_names_that_differ_only_in_case_are_refused_and_harmless_suffixes_pass(tmp_path):
    line = refusal(tmp_path / "case", with_dataset(tiny_config(), "tinysem", "TinySem"))
    assert line.startswith(
        "ordeval: configuration error: config key datasets.tinysem: results/tiny/data/TinySem/gold.tsv and "
        "results/tiny/data/tinysem/gold.tsv differ only in case, one file on a case-insensitive file system"
    ), line
    # TinyDQ is OQ: it has no pooled leaderboard, so TinyDQ_pooled collides with nothing
    run_workflow(tmp_path / "suffix", with_dataset(tiny_config(), "TinyDQ_pooled", "TinySem"), "--dry-run")


def test_a_measure_named_like_a_score_file_is_refused(tmp_path):
    """Precomputed scores of a measure 'means' would be written to scores/<dataset>/means.tsv."""
    (tmp_path / "s.tsv").write_text("topic\tA\tB\tC\tD\tE\n" + "".join(f"t{i}\t1\t2\t3\t4\t5\n" for i in range(8)))
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"]["Pre"] = {
        "task": "scores",
        "scores": [{"type": "score_matrix", "measure": measure, "path": "s.tsv"} for measure in ("NMD", "means")],
    }
    line = refusal(tmp_path, config)
    assert line.startswith(
        "ordeval: configuration error: config key datasets.Pre: results/tiny/scores/Pre/means.tsv "
        "would be written twice: as "
    ), line
    assert line.endswith("rename measure 'means'"), line


def test_ordeval_run_refuses_the_colliding_name_before_any_job(tmp_path, monkeypatch, capsys):
    from conftest import project_copy

    project = project_copy(tmp_path / "project")
    monkeypatch.chdir(project)
    config = with_dataset(tiny_config("collide", classification=True), "TinyOC_pooled", "TinyOC")
    (project / "c.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} -m snakemake")
    assert main(["run", "-n", "--configfile", "c.yaml"]) != 0
    err = capsys.readouterr().err
    assert "ordeval: configuration error: config key datasets.TinyOC_pooled: " in err and "Traceback" not in err
    assert "results/collide/tables/leaderboard/TinyOC_pooled.csv would be written twice" in err
    assert not (project / "results" / "collide").exists()
