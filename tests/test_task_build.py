"""Building a data set (ordeval.tasks.base.Task.build): one template for every task, which reads exactly the files
it is given by source entry (``files``: gold, runs_<i>, scores_<i>; ordeval.tasks.sources.source_paths) and records
each as the configuration names it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import built

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import sha256
from ordeval.tasks import get_task
from ordeval.tasks.sources import file_key, source_paths


def quantification_spec() -> dict:
    return {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [
            {"type": "popularity", "name": "BL-popularity"},
            {"type": "semeval_dist", "path": "runs/one.txt", "name": "R1"},
            {"type": "simulate", "systems": 2},
            {"type": "semeval_dist", "path": "runs/two.txt", "name": "R2"},
        ],
    }


def write_quantification_files(folder) -> None:
    (folder / "runs").mkdir(parents=True)
    (folder / "gold.txt").write_text("a\t0.1\t0.1\t0.2\t0.3\t0.3\nb\t0\t0.5\t0.5\t0\t0\n")
    (folder / "runs" / "one.txt").write_text("a\t0.2\t0.2\t0.2\t0.2\t0.2\nb\t0\t0\t1\t0\t0\n")
    (folder / "runs" / "two.txt").write_text("b\t0\t0.5\t0.5\t0\t0\na\t0.1\t0.1\t0.2\t0.3\t0.3\n")


def test_source_paths_key_each_file_by_its_entry(tmp_path):
    spec = quantification_spec()
    spec["runs"][3]["path"] = str(tmp_path / "elsewhere.txt")  # absolute: as given
    assert source_paths("Q", spec, tmp_path / "data") == {
        "gold": tmp_path / "data" / "gold.txt",
        "runs_1": tmp_path / "data" / "runs" / "one.txt",
        "runs_3": tmp_path / "elsewhere.txt",
    }
    scores = {"scores": [{"path": "a.tsv", "measure": "A"}, {"path": "b.tsv", "measure": "B"}]}
    assert source_paths("S", scores, "root") == {"scores_0": Path("root", "a.tsv"), "scores_1": Path("root", "b.tsv")}
    assert all(key.isidentifier() for key in source_paths("Q", spec, tmp_path))  # a rule's named inputs
    assert [file_key(entry) for entry in ("gold", "runs[0]", "runs[12]", "scores[3]")] == [
        "gold",
        "runs_0",
        "runs_12",
        "scores_3",
    ]


def test_build_reads_the_files_it_is_given_and_records_them_as_configured(tmp_path):
    """The files may lie anywhere (a rule's inputs): the data set and its provenance are those built below
    data_root, and the provenance names each file as the configuration does, with the SHA-256 of what was read."""
    task = get_task("quantification")
    spec = quantification_spec()
    write_quantification_files(tmp_path / "data")
    expected = built(task, "Q", spec, tmp_path / "data", 3)
    elsewhere = tmp_path / "inputs"
    elsewhere.mkdir()
    files = {}
    for key, path in source_paths("Q", spec, tmp_path / "data").items():
        files[key] = shutil.copy(path, elsewhere / f"{key}.txt")
    shutil.rmtree(tmp_path / "data")
    data = task.build("Q", spec, files, 3)
    assert data.run_names == ["BL-popularity", "R1", "SIM01", "SIM02", "R2"]
    assert (data.runs == expected.runs).all() and (data.gold == expected.gold).all()
    assert json.dumps(data.provenance) == json.dumps(expected.provenance)
    assert data.provenance["gold"] == {
        "source": "file",
        "type": "semeval_dist",
        "path": "gold.txt",
        "sha256": sha256(files["gold"]),
    }
    assert data.provenance["runs"]["R2"]["path"] == "runs/two.txt"
    assert data.provenance["simulated_runs"] == ["SIM01", "SIM02"] and data.origin == "partly synthetic"


def test_a_file_not_given_or_not_there_is_one_line_naming_the_entry(tmp_path):
    task = get_task("quantification")
    spec = quantification_spec()
    write_quantification_files(tmp_path)
    files = source_paths("Q", spec, tmp_path)
    with pytest.raises(ConfigError, match=r"^no file given for datasets\.Q\.runs\[3\] \(key 'runs_3'\)$"):
        task.build("Q", spec, {key: path for key, path in files.items() if key != "runs_3"}, 3)
    (tmp_path / "runs" / "one.txt").unlink()
    with pytest.raises(
        ConfigError, match=r"^1 input file missing: .*one\.txt \(asked for by datasets\.Q\.runs\[1\]\)$"
    ):
        task.build("Q", spec, files, 3)


def test_a_run_name_given_twice_is_reported_before_the_run_is_paired(tmp_path):
    """The second R1 misses a topic of the gold: the name given twice is the error, the clearer one."""
    task = get_task("quantification")
    spec = quantification_spec()
    write_quantification_files(tmp_path)
    (tmp_path / "runs" / "two.txt").write_text("b\t0\t0.5\t0.5\t0\t0\n")
    with pytest.raises(InputError, match="misses 1 topic"):
        built(task, "Q", spec, tmp_path, 3)
    spec["runs"][3]["name"] = "R1"
    with pytest.raises(ConfigError, match=r"^datasets\.Q\.runs\[3\]: run name 'R1' is used twice$"):
        built(task, "Q", spec, tmp_path, 3)


def test_classification_records_each_run_file_with_its_alignment(tmp_path):
    """A task's run-file options (classification's ``align``) join the file's provenance, given or by default."""
    (tmp_path / "gold.txt").write_text("1\tt1\t0\n2\tt1\t1\n3\tt2\t1\n")
    (tmp_path / "run.txt").write_text("1\tt1\t1\n2\tt1\t1\n3\tt2\t0\n")
    spec = {
        "task": "classification",
        "classes": [0, 1],
        "gold": {"type": "semeval_labels", "path": "gold.txt"},
        "runs": [
            {"type": "semeval_labels", "path": "run.txt", "name": "A"},
            {"type": "semeval_labels", "path": "run.txt", "name": "B", "align": "position"},
            {"type": "constant_class", "name": "C", "class": 1},
        ],
    }
    data = built(get_task("classification"), "D", spec, tmp_path, 1)
    assert [data.provenance["runs"][run].get("align") for run in "ABC"] == ["id", "position", None]
    assert data.provenance["runs"]["C"] == {
        "source": "baseline",
        "type": "constant_class",
        "class": "1",
        "computed_from": "gold",
    }
    assert data.runs.tolist() == [[1, 1, 0], [1, 1, 0], [1, 1, 1]]


def test_precomputed_scores_read_their_files_by_entry(tmp_path):
    (tmp_path / "a.tsv").write_text("topic\tX\tY\nt1\t0.5\t0.25\nt2\t1\t0\n")
    (tmp_path / "b.tsv").write_text("topic\tX\tY\nt2\t3\t4\nt1\t1\t2\n")
    spec = {
        "task": "scores",
        "scores": [
            {"type": "score_matrix", "path": "a.tsv", "measure": "A", "lower_is_better": False},
            {"type": "score_matrix", "path": "b.tsv", "measure": "B"},
        ],
    }
    data = get_task("scores").build("S", spec, {"scores_0": tmp_path / "a.tsv", "scores_1": tmp_path / "b.tsv"}, 0)
    assert data.stack.values[1].tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert data.provenance["scores"]["B"] == {"path": "b.tsv", "sha256": sha256(tmp_path / "b.tsv")}
    with pytest.raises(ConfigError, match=r"datasets\.S\.scores\[1\] \(key 'scores_1'\)"):
        get_task("scores").build("S", spec, {"scores_0": tmp_path / "a.tsv"}, 0)
