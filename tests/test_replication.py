"""The replication configuration on the real gold data of ../shared/data/raw (skipped where absent)."""

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO, SHARED_RAW, run_workflow, shared_file
from snakemake.utils import validate

from ordeval import readers
from ordeval.datasets import build_dataset, check_files_exist
from ordeval.errors import ConfigError
from ordeval.measures import get_measure

CLASSES = [-2, -1, 0, 1, 2]
SEM16_GOLD = "Sem16T4CE/twitter-2016test-CE.txt"
POTTS = "Sem16T4CE/runs/PotTS.SubtaskE.res.official.txt"
SEM17_GOLD = "Sem17T4CE/SemEval2017_task4_subtaskE_test_english_gold.txt"
STC3_GOLD = "STC3-DQ/stc3-nddq-test-annotations.json"


def load(name: str) -> dict:
    config = yaml.safe_load((REPO / "config" / name).read_text())
    validate(config, str(REPO / "workflow" / "schemas" / "config.schema.yaml"))
    return config


@pytest.fixture(scope="module")
def replication():
    return load("replication.yaml")


def test_replication_has_every_section_of_the_default_config(replication):
    default = load("config.yaml")
    assert replication["name"] == "replication"
    assert replication["data_root"] == "resources/"
    assert set(replication) == set(default)
    assert set(replication["datasets"]) == set(default["datasets"])
    for section in ("agreement", "consistency", "significance", "popularity", "report"):
        assert replication[section] == default[section], section


# --------------------------------------------------------------------------- the readers on the real files


def test_sem16_gold_counts_tweet_labels_per_topic():
    gold = readers.read_semeval_labels(shared_file(SEM16_GOLD), CLASSES)
    assert len(gold.topics) == 100
    np.testing.assert_allclose(gold.values.sum(axis=1), 1.0)
    lines = pd.read_csv(shared_file(SEM16_GOLD), sep="\t", header=None, names=["id", "topic", "label"], dtype=str)
    first = gold.topics[0]
    shares = lines[lines["topic"] == first]["label"].value_counts(normalize=True)
    np.testing.assert_allclose(gold.values[0], [shares.get(str(c), 0.0) for c in CLASSES])


def test_sem17_gold_has_125_topics():
    gold = readers.read_semeval_dist(shared_file(SEM17_GOLD), CLASSES)
    assert len(gold.topics) == 125
    np.testing.assert_allclose(gold.values.sum(axis=1), 1.0)


@pytest.mark.parametrize("score", ["A", "E", "S"])
def test_stc3_gold_has_390_dialogues_rated_by_19_annotators(score):
    gold = readers.read_ntcir_annotations(shared_file(STC3_GOLD), CLASSES, score)
    assert len(gold.topics) == 390
    counts = gold.values * 19
    np.testing.assert_allclose(counts, np.rint(counts), atol=1e-9)


def test_potts_run_scores_the_official_emd():
    gold = readers.read_semeval_labels(shared_file(SEM16_GOLD), CLASSES)
    run = readers.read_semeval_dist(shared_file(POTTS), CLASSES)
    nmd = get_measure("NMD")(readers.align_to_gold(run, gold.topics, "PotTS"), gold.values).mean()
    assert nmd == pytest.approx(0.8177 / 4, abs=0.0005)
    assert 4 * nmd == pytest.approx(0.818, abs=0.0005)  # the official EMD at 3 decimals


# --------------------------------------------------------------------------- the data sets of the config


@pytest.mark.parametrize(
    ("name", "path", "topics", "runs"),
    [
        ("Sem16T4E", SEM16_GOLD, 100, 12),
        ("Sem17T4E", SEM17_GOLD, 125, 14),
        ("STC3-DQ-A", STC3_GOLD, 390, 19),
        ("STC3-DQ-E", STC3_GOLD, 390, 19),
        ("STC3-DQ-S", STC3_GOLD, 390, 19),
    ],
)
def test_real_data_sets_build_from_the_shared_files(replication, name, path, topics, runs):
    shared_file(path)
    dataset = build_dataset(name, replication["datasets"][name], SHARED_RAW, replication["seed"])
    assert (len(dataset.topics), len(dataset.run_names)) == (topics, runs)
    assert dataset.origin == "partly synthetic"
    assert dataset.provenance["gold"]["source"] == "file"
    assert len(dataset.provenance["gold"]["sha256"]) == 64


def test_stc3_runs_are_split_into_chinese_and_english_with_baselines_from_the_gold(replication):
    shared_file(STC3_GOLD)
    dataset = build_dataset("STC3-DQ-A", replication["datasets"]["STC3-DQ-A"], SHARED_RAW, replication["seed"])
    names = dataset.run_names
    assert sum(name.endswith("-C") for name in names) == 10
    assert sum(name.endswith("-E") for name in names) == 9
    popularity = dataset.runs[names.index("BL-popularity-C")]
    np.testing.assert_array_equal(popularity, dataset.runs[names.index("BL-popularity-E")])
    modes = dataset.gold >= dataset.gold.max(axis=1, keepdims=True) - 1e-12
    np.testing.assert_array_equal(popularity > 0, modes)
    np.testing.assert_allclose(popularity[modes], (1 / modes.sum(axis=1)).repeat(modes.sum(axis=1)))
    assert modes.sum() > 390  # the real gold has tied modes, whose mass popularity splits


def test_potts_through_the_config_scores_the_official_emd(replication):
    shared_file(POTTS)
    dataset = build_dataset("Sem16T4E", replication["datasets"]["Sem16T4E"], SHARED_RAW, replication["seed"])
    assert dataset.run_names[0] == "PotTS"
    nmd = get_measure("NMD")(dataset.runs[0], dataset.gold).mean()
    assert nmd == pytest.approx(0.2044, abs=0.0005)
    assert dataset.provenance["simulated_runs"] == [f"SIM{i:02d}" for i in range(1, 12)]


@pytest.mark.parametrize("name", ["DialEval1-DQ-A", "DialEval1-DQ-E", "DialEval1-DQ-S"])
def test_dialeval_is_fully_simulated_and_says_so(replication, name):
    spec = replication["datasets"][name]
    assert "SIMULATED" in spec["description"]
    dataset = build_dataset(name, spec, SHARED_RAW, replication["seed"])
    assert (len(dataset.topics), len(dataset.run_names)) == (300, 22)
    assert dataset.origin == "synthetic"


# --------------------------------------------------------------------------- a data root that lacks a file


def test_missing_file_error_names_the_file_and_the_config_entry(replication, tmp_path):
    (tmp_path / "Sem16T4CE").mkdir()
    (tmp_path / "Sem16T4CE" / "twitter-2016test-CE.txt").write_text("1\tt\t0\n")
    spec = replication["datasets"]["Sem16T4E"]
    with pytest.raises(ConfigError) as error:
        check_files_exist({"Sem16T4E": spec}, tmp_path)
    message = str(error.value)
    assert str(tmp_path / POTTS) in message and "datasets.Sem16T4E.runs[0]" in message
    assert "twitter-2016test-CE.txt" not in message
    with pytest.raises(ConfigError, match=r"datasets\.Sem17T4E\.gold"):
        build_dataset("Sem17T4E", replication["datasets"]["Sem17T4E"], tmp_path, 1)


def test_workflow_on_a_data_root_lacking_a_file_names_it(replication, tmp_path):
    config = {**replication, "data_root": str(tmp_path / "empty")}
    config["datasets"] = {"Sem16T4E": replication["datasets"]["Sem16T4E"]}
    (tmp_path / "empty").mkdir()
    result = run_workflow(tmp_path / "work", config, check=False)
    assert result.returncode != 0
    assert str(tmp_path / "empty" / SEM16_GOLD) in result.stderr
    assert "datasets.Sem16T4E.gold" in result.stderr
    assert "datasets.Sem16T4E.runs[0]" in result.stderr


def test_workflow_on_real_stc3_gold_marks_popularity_outputs_real(replication, tmp_path):
    shared_file(STC3_GOLD)
    config = {**replication, "data_root": str(SHARED_RAW)}
    config["datasets"] = {name: replication["datasets"][name] for name in ("STC3-DQ-A", "DialEval1-DQ-A")}
    run_workflow(tmp_path, config, "--until", "popularity_table", "popularity_scatter")
    results = tmp_path / "results" / "replication"
    table = pd.read_csv(results / "tables" / "popularity_vs_uniform.csv")
    origins = dict(zip(table["dataset"], table["data_origin"], strict=False))
    assert origins["STC3-DQ-A"] == "real" and origins["DialEval1-DQ-A"] == "synthetic"
    assert "STC3-DQ-A: real" in origins["TOTAL"]
    assert (
        "STC3-DQ-A: real; DialEval1-DQ-A: synthetic" in (results / "tables" / "popularity_vs_uniform.tex").read_text()
    )
    counts = table[table["dataset"] == "STC3-DQ-A"][["uniform", "popularity", "ties"]].sum(axis=1)
    assert (counts == 390).all()
