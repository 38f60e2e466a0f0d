"""The replication configuration on the real gold data (conftest.SHARED_RAW: resources/ once fetched, else
../shared/data/raw; skipped where absent)."""

import copy
import csv
from collections import Counter

import numpy as np
import pytest
from conftest import REPO, SHARED_RAW, build_and_score, built, run_rule_script, shared_file

from ordeval.io.errors import ConfigError
from ordeval.io.provenance import ORIGINS
from ordeval.io.table import Table
from ordeval.tasks.quantification import TASK, readers
from ordeval.tasks.quantification.measures import get_measure
from ordeval.tasks.sources import check_files_exist
from ordeval.workflow.config import load as load_config
from ordeval.workflow.plan import plan as make_plan

CLASSES = [-2, -1, 0, 1, 2]
SEM16_GOLD = "Sem16T4CE/twitter-2016test-CE.txt"
SEM16_E_GOLD = "Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt"
POTTS = "Sem16T4CE/runs/PotTS.SubtaskE.res.official.txt"
QCRI = "Sem16T4CE/official/runs/E/QCRI-E.output"
SEM17_GOLD = "Sem17T4CE/SemEval2017_task4_subtaskE_test_english_gold.txt"
STC3_GOLD = "STC3-DQ/stc3-nddq-test-annotations.json"


def load(name: str) -> dict:
    """The configuration file, validated against the schema (defaults filled in)."""
    return load_config(REPO / "config" / name)


@pytest.fixture(scope="module")
def replication():
    return load("replication.yaml")


def test_replication_has_every_section_of_the_default_config(replication):
    default = load("config.yaml")
    assert replication["name"] == "replication"
    # the same data_root as every paper preset, where `ordeval fetch` puts the data: a run and its
    # `snakemake --report` need no --config
    presets = {load(f"papers/{path.name}")["data_root"] for path in (REPO / "config" / "papers").glob("*.yaml")}
    assert presets == {replication["data_root"]} == {"resources/"}
    assert set(replication) == set(default)
    assert set(replication["datasets"]) == set(default["datasets"])
    for section in ("agreement", "consistency", "significance", "popularity", "report"):
        assert replication[section] == default[section] | (
            {"ci_method": "fisher_z_rounded"} if section == "agreement" else {}
        ), section
    assert default["agreement"]["ci_method"] == "fisher_z"  # the papers' bounds: tau rounded as printed (methods 4.1)


# --------------------------------------------------------------------------- the readers on the real files


def test_sem16_gold_counts_tweet_labels_per_topic():
    gold = readers.read_semeval_labels(shared_file(SEM16_GOLD), CLASSES)
    assert len(gold.topics) == 100
    np.testing.assert_allclose(gold.values.sum(axis=1), 1.0)
    with open(shared_file(SEM16_GOLD), encoding="utf-8", newline="") as handle:
        lines = [row for row in csv.reader(handle, delimiter="\t") if row]
    first = gold.topics[0]
    labels = Counter(label for _, topic, label in lines if topic == first)
    shares = [labels[str(c)] / sum(labels.values()) for c in CLASSES]
    np.testing.assert_allclose(gold.values[0], shares)


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
        ("Sem16T4E", SEM16_E_GOLD, 100, 12),
        ("Sem17T4E", SEM17_GOLD, 125, 14),
        ("STC3-DQ-A", STC3_GOLD, 390, 19),
        ("STC3-DQ-E", STC3_GOLD, 390, 19),
        ("STC3-DQ-S", STC3_GOLD, 390, 19),
    ],
)
def test_real_data_sets_build_from_the_shared_files(replication, name, path, topics, runs):
    shared_file(path)
    dataset = built(TASK, name, replication["datasets"][name], SHARED_RAW, replication["seed"])
    assert (len(dataset.topics), len(dataset.run_names)) == (topics, runs)
    assert dataset.origin == ("real" if name == "Sem16T4E" else "partly synthetic")  # the 12 official runs
    assert dataset.provenance["gold"]["source"] == "file"
    assert len(dataset.provenance["gold"]["sha256"]) == 64


def test_stc3_runs_are_split_into_chinese_and_english_with_baselines_from_the_gold(replication):
    shared_file(STC3_GOLD)
    dataset = built(TASK, "STC3-DQ-A", replication["datasets"]["STC3-DQ-A"], SHARED_RAW, replication["seed"])
    names = dataset.run_names
    assert sum(name.endswith("-C") for name in names) == 10
    assert sum(name.endswith("-E") for name in names) == 9
    popularity = dataset.runs[names.index("BL-popularity-C")]
    np.testing.assert_array_equal(popularity, dataset.runs[names.index("BL-popularity-E")])
    modes = dataset.gold >= dataset.gold.max(axis=1, keepdims=True) - 1e-12
    np.testing.assert_array_equal(popularity > 0, modes)
    np.testing.assert_allclose(popularity[modes], (1 / modes.sum(axis=1)).repeat(modes.sum(axis=1)))
    assert modes.sum() > 390  # the real gold has tied modes, whose mass popularity splits


def test_the_official_runs_through_the_config_score_the_official_emd(replication):
    """Nakov et al. 2016, subtask E: QCRI 0.243 ... PotTS 0.818 (EMD = 4 NMD), every run real."""
    shared_file(QCRI)
    dataset = built(TASK, "Sem16T4E", replication["datasets"]["Sem16T4E"], SHARED_RAW, replication["seed"])
    emd = {run: 4 * get_measure("NMD")(dataset.runs[r], dataset.gold).mean() for r, run in enumerate(dataset.run_names)}
    assert round(emd["QCRI"], 3) == 0.243 and round(emd["PotTS"], 3) == 0.818 and round(emd["BL-positive"], 3) == 0.734
    assert dataset.provenance["simulated_runs"] == []


@pytest.mark.parametrize("name", ["DialEval1-DQ-A", "DialEval1-DQ-E", "DialEval1-DQ-S"])
def test_dialeval_is_fully_simulated_and_says_so(replication, name):
    spec = replication["datasets"][name]
    assert "SIMULATED" in spec["description"]
    dataset = built(TASK, name, spec, SHARED_RAW, replication["seed"])
    assert (len(dataset.topics), len(dataset.run_names)) == (300, 22)
    assert dataset.origin == "synthetic"


# --------------------------------------------------------------------------- a data root that lacks a file


def test_missing_file_error_names_the_file_and_the_config_entry(replication, tmp_path):
    (tmp_path / "Sem16T4CE" / "official" / "gold").mkdir(parents=True)
    (tmp_path / SEM16_E_GOLD).write_text("t\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    spec = replication["datasets"]["Sem16T4E"]
    with pytest.raises(ConfigError) as error:
        check_files_exist({"Sem16T4E": spec}, tmp_path)
    message = str(error.value)
    assert str(tmp_path / QCRI) in message and "datasets.Sem16T4E.runs[0]" in message
    assert "subtaskE_test_gold.txt" not in message
    with pytest.raises(ConfigError, match=r"datasets\.Sem17T4E\.gold"):
        built(TASK, "Sem17T4E", replication["datasets"]["Sem17T4E"], tmp_path, 1)


def test_a_data_root_lacking_a_file_is_named_before_any_job(replication, tmp_path):
    """The planner (what the Snakefile runs first) names every missing file with its config entry."""
    config = {**replication, "data_root": str(tmp_path / "empty")}
    config["datasets"] = {"Sem16T4E": replication["datasets"]["Sem16T4E"]}
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    message = str(error.value)
    assert str(tmp_path / "empty" / SEM16_E_GOLD) in message
    assert "datasets.Sem16T4E.gold" in message
    assert "datasets.Sem16T4E.runs[0]" in message


def test_popularity_on_real_stc3_gold_is_marked_real(replication, tmp_path, monkeypatch):
    """The data, scoring and Popularity vs Uniform table scripts of the plan, on the real STC3 gold (baselines
    computed from it: real) and the simulated DialEval-1 (synthetic)."""
    shared_file(STC3_GOLD)
    config = copy.deepcopy({**replication, "data_root": str(SHARED_RAW)})
    config["datasets"] = {name: replication["datasets"][name] for name in ("STC3-DQ-A", "DialEval1-DQ-A")}
    monkeypatch.chdir(tmp_path)
    plan = make_plan(config, workdir=tmp_path)
    build_and_score(plan)
    names, compared = list(plan.datasets), plan.popularity_datasets
    assert compared == names
    popularity = plan.config["popularity"]
    tables = f"{plan.results}/tables"
    run_rule_script(
        "popularity_tables",
        input={
            "stack": [f"{plan.results}/scores/{name}/stack.npz" for name in compared],
            "tables": [],
            "provenance": [f"{plan.results}/data/{name}/provenance.json" for name in names],
        },
        output={
            "csv": f"{tables}/popularity_vs_uniform.csv",
            "html": f"{tables}/popularity_vs_uniform.html",
            "tex": f"{tables}/popularity_vs_uniform.tex",
            "deltas": f"{tables}/popularity_deltas.csv",
            "deltas_html": f"{tables}/popularity_deltas.html",
        },
        params={
            **{key: popularity[key] for key in ("popularity_run", "uniform_run", "ci_level", "tie_tolerance")},
            "measures": plan.measures("popularity", "quantification"),
            "skipped": plan.popularity_skipped,
            "datasets": compared,
            "all_datasets": names,
        },
    )
    results = tmp_path / "results" / "replication"
    counts = ["uniform", "popularity", "ties"]
    table = Table.read(results / "tables" / "popularity_vs_uniform.csv", sep=",", integer=counts)
    origins = dict(zip(table["dataset"], table["data_origin"], strict=False))
    assert origins["STC3-DQ-A"] == "real" and origins["DialEval1-DQ-A"] == "synthetic"
    # real counts are never added to synthetic ones: one TOTAL per origin, origins from the enumeration
    assert "TOTAL" not in origins
    assert origins["TOTAL (real)"] == "real" and origins["TOTAL (synthetic)"] == "synthetic"
    assert set(table["data_origin"]) <= set(ORIGINS)
    rows = {(row["dataset"], row["measure"]): [row[k] for k in counts] for row in table.records()}
    for (name, measure), values in rows.items():
        if name == "STC3-DQ-A":
            assert rows[("TOTAL (real)", measure)] == values
        if name == "DialEval1-DQ-A":
            assert rows[("TOTAL (synthetic)", measure)] == values
    assert (
        "STC3-DQ-A: real; DialEval1-DQ-A: synthetic" in (results / "tables" / "popularity_vs_uniform.tex").read_text()
    )
    stc3 = table.select([name == "STC3-DQ-A" for name in table["dataset"]])
    assert len(stc3) == 6 and ((stc3["uniform"] + stc3["popularity"] + stc3["ties"]) == 390).all()
