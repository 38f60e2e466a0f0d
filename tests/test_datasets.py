"""Data sets as configuration: shapes of the default data, baselines, simulation, provenance, errors."""

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import REPO, built, canonical_files, run_rule_script, tiny_config

from ordeval.io.errors import ConfigError, InputError
from ordeval.tasks.quantification import TASK, baselines
from ordeval.tasks.quantification.data import read_arrays, read_canonical, write_canonical
from ordeval.tasks.quantification.measures import get_measure
from ordeval.tasks.sources import check_files_exist
from ordeval.workflow.plan import plan as make_plan

DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())

# SPEC section 2: topics, runs (Chinese + English for NTCIR).
SHAPES = {
    "Sem16T4E": (100, 12),
    "Sem17T4E": (125, 14),
    **{f"STC3-DQ-{s}": (390, 19) for s in "AES"},
    **{f"DialEval1-DQ-{s}": (300, 22) for s in "AES"},
}


@pytest.fixture(scope="module")
def default_datasets():
    return {
        name: built(TASK, name, spec, DEFAULT["data_root"], DEFAULT["seed"])
        for name, spec in DEFAULT["datasets"].items()
        if spec.get("task", "quantification") == "quantification"
    }


def test_default_config_has_the_eight_data_sets_with_the_spec_shapes(default_datasets):
    assert set(default_datasets) == set(SHAPES)
    for name, (topics, runs) in SHAPES.items():
        dataset = default_datasets[name]
        assert dataset.runs.shape == (runs, topics, 5), name
        assert dataset.gold.shape == (topics, 5)
        assert dataset.classes == ["-2", "-1", "0", "1", "2"]
        assert dataset.origin == "synthetic"
        np.testing.assert_allclose(dataset.runs.sum(axis=-1), 1)
        np.testing.assert_allclose(dataset.gold.sum(axis=-1), 1)


def test_ntcir_sets_have_the_chinese_english_split_and_baseline_copies(default_datasets):
    for name, chinese, english in [("STC3-DQ-A", 10, 9), ("DialEval1-DQ-S", 13, 9)]:
        dataset = default_datasets[name]
        names = dataset.run_names
        assert sum(run.endswith("-C") for run in names) == chinese
        assert sum(run.endswith("-E") for run in names) == english
        runs = dict(zip(names, dataset.runs, strict=True))
        for baseline in ("BL-popularity", "BL-uniform"):
            np.testing.assert_array_equal(runs[f"{baseline}-C"], runs[f"{baseline}-E"])
        np.testing.assert_array_equal(runs["BL-popularity-C"], baselines.popularity(dataset.gold))
        np.testing.assert_array_equal(runs["BL-uniform-C"], 0.2)


def test_ntcir_gold_is_shares_of_annotators_and_aes_are_correlated(default_datasets):
    golds = {s: default_datasets[f"STC3-DQ-{s}"].gold for s in "AES"}
    for gold in golds.values():
        np.testing.assert_allclose(gold * 19, np.rint(gold * 19), atol=1e-9)
    expected = {s: gold @ np.arange(-2, 3) for s, gold in golds.items()}
    assert np.corrcoef(expected["A"], expected["E"])[0, 1] > 0.3
    assert np.corrcoef(expected["A"], expected["S"])[0, 1] > 0.3


def test_semeval_like_gold_leans_positive(default_datasets):
    gold = default_datasets["Sem16T4E"].gold
    assert gold[:, 3:].sum() > gold[:, :2].sum()


def test_simulated_runs_have_graded_skill(default_datasets):
    dataset = default_datasets["DialEval1-DQ-A"]
    means = get_measure("NMD")(dataset.runs, dataset.gold).mean(axis=1)
    simulated = [i for i, run in enumerate(dataset.run_names) if run.startswith("SIM")]
    # systems differ, but little: they are calibrated to the papers' discriminative power (about 45% of
    # the run pairs significant over 300-390 topics), see config/config.yaml
    assert 0.01 < np.ptp(means[simulated]) < 0.1
    # English variants are noisier than their Chinese runs.
    by_name = dict(zip(dataset.run_names, means, strict=True))
    worse = [by_name[f"SIM{i:02d}-E"] >= by_name[f"SIM{i:02d}-C"] for i in range(1, 8)]
    assert sum(worse) >= 6


def test_same_seed_same_data_other_seed_other_data():
    spec = DEFAULT["datasets"]["STC3-DQ-E"]
    first = built(TASK, "STC3-DQ-E", spec, "resources", 5)
    second = built(TASK, "STC3-DQ-E", spec, "resources", 5)
    third = built(TASK, "STC3-DQ-E", spec, "resources", 6)
    np.testing.assert_array_equal(first.runs, second.runs)
    np.testing.assert_array_equal(first.gold, second.gold)
    assert not np.array_equal(first.gold, third.gold)


def test_canonical_round_trip(tmp_path):
    spec = tiny_config()["datasets"]["TinyDQ"]
    dataset = built(TASK, "TinyDQ", spec, tmp_path, 1)
    paths = [tmp_path / "gold.tsv", tmp_path / "runs.tsv", tmp_path / "provenance.json"]
    write_canonical(dataset, *paths)
    again = read_canonical("TinyDQ", spec["classes"], *paths)
    assert again.topics == dataset.topics
    assert again.run_names == dataset.run_names
    np.testing.assert_allclose(again.runs, dataset.runs, rtol=1e-15, atol=1e-16)
    np.testing.assert_allclose(again.gold, dataset.gold, rtol=1e-15, atol=1e-16)
    assert again.provenance["origin"] == "synthetic"
    assert again.provenance["runs"]["BL-uniform-C"]["source"] == "baseline"
    header = (tmp_path / "runs.tsv").read_text().splitlines()[0]
    assert header == "topic\trun\tclass\tprob"


def test_scoring_reads_the_arrays_only_while_they_mirror_the_tables(tmp_path):
    """arrays.npz beside the canonical tables spares scoring the parsing; a table edited since (or a missing
    arrays file) is parsed instead, so the tables stay the truth; a damaged arrays file is an error naming it
    (tests/test_derived_files_checks.py)."""
    spec = tiny_config()["datasets"]["TinyDQ"]
    dataset = built(TASK, "TinyDQ", spec, tmp_path, 1)
    files = canonical_files(tmp_path / "data")
    TASK.write_canonical(dataset, files)
    paths = [Path(files[key]) for key in ("arrays", "gold", "runs")]
    stored = read_arrays(paths[0], spec["classes"], *paths[1:])
    assert stored is not None and stored[0] == dataset.topics and stored[1] == dataset.run_names
    np.testing.assert_allclose(stored[3], dataset.runs, rtol=1e-15, atol=1e-16)
    parsed = read_canonical("TinyDQ", spec["classes"], *paths[1:])  # no arrays: parsed and renormalised
    np.testing.assert_array_equal(parsed.runs, stored[3])  # to the bit: the same scores either way
    np.testing.assert_array_equal(parsed.gold, stored[2])
    assert read_arrays(paths[0], [*spec["classes"], 3], *paths[1:]) is None  # other classes
    # A run's value edited in the table: the arrays no longer mirror it; the edit is what is read.
    # (the probabilities of the 3rd and 4th class of the first topic of the first run swapped).
    lines = paths[2].read_text().splitlines()
    third, fourth = lines[3].split("\t"), lines[4].split("\t")
    third[3], fourth[3] = fourth[3], third[3]
    lines[3], lines[4] = "\t".join(third), "\t".join(fourth)
    paths[2].write_text("\n".join(lines) + "\n")
    assert read_arrays(paths[0], spec["classes"], *paths[1:]) is None
    edited = TASK.read_canonical("TinyDQ", spec, files).runs[0, 0]
    assert (edited[2], edited[3]) == (stored[3][0, 0, 3], stored[3][0, 0, 2]) and edited[2] != edited[3]
    paths[0].unlink()
    np.testing.assert_array_equal(TASK.read_canonical("TinyDQ", spec, files).runs[0, 0], edited)


def test_the_task_builds_writes_reads_and_scores_a_data_set(tmp_path):
    spec = tiny_config()["datasets"]["TinyDQ"]
    dataset = built(TASK, "TinyDQ", spec, tmp_path, 1)
    files = canonical_files(tmp_path / "data")
    TASK.write_canonical(dataset, files)
    written = sorted(path.name for path in (tmp_path / "data").iterdir())
    assert written == ["arrays.npz", "gold.tsv", "provenance.json", "runs.tsv"]
    again = TASK.read_canonical("TinyDQ", spec, files)
    assert again.run_names == dataset.run_names == TASK.declared_runs(spec, tmp_path)
    assert TASK.tsv_run_names(tmp_path / "data" / "runs.tsv") == dataset.run_names
    assert TASK.topic_count(spec, tmp_path) == len(dataset.topics) == 14
    scored = TASK.score(again, ["NMD", "JSD"])
    stack = scored.stack
    assert (stack.measures, stack.topics, stack.runs) == (["NMD", "JSD"], dataset.topics, dataset.run_names)
    assert stack.values.shape == (2, 14, 10) and stack.lower_is_better == [True, True]
    np.testing.assert_allclose(stack.matrix("JSD"), get_measure("JSD")(dataset.runs, dataset.gold).T, atol=1e-15)
    assert scored.extras == {}


def test_popularity_splits_ties_evenly():
    gold = np.array([[0.4, 0.4, 0.2, 0.0, 0.0], [0.1, 0.2, 0.3, 0.4, 0.0], [0.2] * 5])
    np.testing.assert_allclose(baselines.popularity(gold), [[0.5, 0.5, 0, 0, 0], [0, 0, 0, 1, 0], [0.2] * 5])
    np.testing.assert_allclose(baselines.uniform(gold), 0.2)
    np.testing.assert_allclose(baselines.constant_class(gold, 3)[0], [0, 0, 0, 1, 0])


def file_backed_spec(tmp_path):
    (tmp_path / "gold.txt").write_text("a\t0.2\t0.2\t0.2\t0.2\t0.2\nb\t0\t0\t1\t0\t0\n")
    (tmp_path / "run.txt").write_text("b\t0\t0.5\t0.5\t0\t0\na\t0.1\t0.1\t0.2\t0.3\t0.3\n")
    return {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [
            {"type": "semeval_dist", "path": "run.txt", "name": "R1"},
            {"type": "popularity", "name": "BL-popularity"},
            {"type": "simulate", "systems": 2},
        ],
    }


def test_file_sources_with_simulated_runs_are_partly_synthetic(tmp_path):
    dataset = built(TASK, "Mixed", file_backed_spec(tmp_path), tmp_path, 3)
    assert dataset.run_names == ["R1", "BL-popularity", "SIM01", "SIM02"]
    assert dataset.origin == "partly synthetic"
    np.testing.assert_allclose(dataset.runs[0], [[0.1, 0.1, 0.2, 0.3, 0.3], [0, 0.5, 0.5, 0, 0]])
    record = dataset.provenance["runs"]["R1"]
    assert record["source"] == "file" and len(record["sha256"]) == 64


def test_real_sources_only_are_real(tmp_path):
    spec = file_backed_spec(tmp_path)
    spec["runs"] = spec["runs"][:2]
    assert built(TASK, "Real", spec, tmp_path, 3).origin == "real"


def test_topics_of_a_gold_file_are_counted_before_building(tmp_path):
    assert TASK.topic_count(file_backed_spec(tmp_path), tmp_path) == 2  # the trailing newline is no topic


def test_missing_file_names_the_file_and_the_config_entry(tmp_path):
    spec = file_backed_spec(tmp_path)
    (tmp_path / "run.txt").unlink()
    with pytest.raises(ConfigError, match=r"run.txt \(asked for by datasets.Mixed.runs\[0\]\)"):
        check_files_exist({"Mixed": spec}, tmp_path)
    with pytest.raises(ConfigError, match="run.txt"):
        built(TASK, "Mixed", spec, tmp_path, 3)


def test_duplicate_run_names_are_a_config_error(tmp_path):
    spec = file_backed_spec(tmp_path)
    spec["runs"].append({"type": "uniform", "name": "R1"})
    with pytest.raises(ConfigError, match=r"datasets.Mixed.runs\[3\]: run name 'R1' is used twice"):
        built(TASK, "Mixed", spec, tmp_path, 3)


def test_run_missing_a_gold_topic_is_an_input_error(tmp_path):
    spec = file_backed_spec(tmp_path)
    (tmp_path / "run.txt").write_text("b\t0\t0.5\t0.5\t0\t0\n")
    with pytest.raises(InputError, match=r"run.txt: run 'R1' misses 1 topic\(s\) of the gold: 'a'"):
        built(TASK, "Mixed", spec, tmp_path, 3)


# --------------------------------------------------------------------------- through the script


def bad_input_config(tmp_path, run_text):
    data = tmp_path / "data"
    data.mkdir()
    spec = file_backed_spec(data)
    (data / "run.txt").write_text(run_text)
    config = tiny_config(data_root=str(data))
    config["datasets"] = {"Bad": spec, "TinySem": config["datasets"]["TinySem"]}
    return config


#: The canonical files of a data set, as rule prepare_data names them.
CANONICAL = {
    key: f"results/tiny/data/{{dataset}}/{key}.{ext}"
    for key, ext in [("gold", "tsv"), ("runs", "tsv"), ("arrays", "npz"), ("provenance", "json")]
}


def prepare(config, name, results, log=()):
    """Script prepare_data on the (quantification) data set ``name`` of ``config``, as its rule would run it (the
    files the configuration names as its inputs, by entry), with its outputs below ``results``; the outputs."""
    output = {key: str(results / path.format(dataset=name)) for key, path in CANONICAL.items()}
    spec, root = config["datasets"][name], config["data_root"]
    entries = [("gold", spec["gold"]), *((f"runs_{i}", source) for i, source in enumerate(spec["runs"]))]
    files = {entry: str(Path(root) / source["path"]) for entry, source in entries if "path" in source}
    params = {"task": "quantification", "spec": config["datasets"][name], "seed": config["seed"], "plugins": []}
    run_rule_script(
        "prepare_data",
        input={**files, "plugins": []},
        output=output,
        params=params,
        wildcards={"dataset": name},
        log=log,
    )
    return output


@pytest.mark.parametrize(
    ("run_text", "message"),
    [
        ("b\t0\t0.5\t0.5\t0\t0\na\t0.1\t0.1\t0.2\t0.3\t1.3\n", "line 2: probability 1.3 is outside [0, 1]"),
        (
            "b\t0\t0.5\t0.5\t0\t0\nc\t0.1\t0.1\t0.2\t0.3\t0.3\na\t0.2\t0.2\t0.2\t0.2\t0.2\n",
            "line 2: run 'R1' has topic 'c', which the gold lacks",
        ),
    ],
)
def test_bad_input_stops_the_job_before_any_output(tmp_path, run_text, message, monkeypatch):
    config = bad_input_config(tmp_path, run_text)
    work, log = tmp_path / "work", tmp_path / "logs" / "Bad.log"
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stopped:  # the job ends with the one-line message, no traceback
        prepare(config, "Bad", work, log=str(log))
    assert stopped.value.code == 1
    logged = log.read_text()
    assert message in logged and str(tmp_path / "data" / "run.txt") in logged and "Traceback" not in logged
    assert not any(path.is_file() for path in work.rglob("*")) if work.exists() else True
    monkeypatch.setenv("ORDEVAL_DEBUG", "1")  # the error itself, for debugging
    with pytest.raises(InputError, match=message.replace("[", r"\[")):
        prepare(config, "Bad", work)
    # The good data set of the same configuration is written (its own job).
    files = prepare(config, "TinySem", work)
    good = work / "results" / "tiny" / "data" / "TinySem"
    assert sorted(path.name for path in good.iterdir()) == ["arrays.npz", "gold.tsv", "provenance.json", "runs.tsv"]
    assert all(Path(path).parent == good for path in files.values())
    provenance = json.loads((good / "provenance.json").read_text())
    assert provenance["task"] == "quantification" and provenance["summary"] == {"topics": 12, "runs": 7, "classes": 5}


def test_missing_data_file_names_file_and_entry_before_any_job(tmp_path, monkeypatch):
    config = bad_input_config(tmp_path, "x")
    (tmp_path / "data" / "run.txt").unlink()
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    with pytest.raises(SystemExit):
        prepare(config, "Bad", tmp_path / "work", log=str(tmp_path / "Bad.log"))
    assert "run.txt (asked for by datasets.Bad.runs[0])" in (tmp_path / "Bad.log").read_text()
    monkeypatch.setenv("ORDEVAL_DEBUG", "1")
    with pytest.raises(ConfigError) as error:
        prepare(config, "Bad", tmp_path / "work")
    assert "run.txt (asked for by datasets.Bad.runs[0])" in str(error.value)
    assert not (tmp_path / "work").exists()
    # The planner (what the Snakefile runs first) says so before any job: with enough runs and topics
    # for the analyses, the missing file is the problem it reports.
    spec = config["datasets"]["Bad"]
    spec["runs"][2]["systems"] = 3
    (tmp_path / "data" / "gold.txt").write_text("".join(f"t{i}\t0.2\t0.2\t0.2\t0.2\t0.2\n" for i in range(8)))
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    assert "run.txt (asked for by datasets.Bad.runs[0])" in str(error.value)


def test_outputs_are_written_with_the_usual_permissions(tmp_path):
    import os

    from ordeval.io.files import write_text

    write_text("x", tmp_path / "out.txt")
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o666 & ~umask
