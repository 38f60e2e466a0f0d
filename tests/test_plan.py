"""The planner: from a configuration to the data sets, their tasks, the files they read and the measures of every
analysis, before any job runs; every problem it finds is a ConfigError naming the configuration key. (What each
stage makes is the rules' own: tests/workflow/test_rules.py.)"""

import copy

import numpy as np
import pytest
from conftest import PLUGIN_TEMPLATE, REPO, SHARED_RAW, built, tiny_config

from ordeval.io.errors import ConfigError
from ordeval.tasks import quantification
from ordeval.tasks.quantification import TASK
from ordeval.tasks.quantification.measures import REGISTRY
from ordeval.workflow.config import load
from ordeval.workflow.modules import script_files
from ordeval.workflow.plan import ANALYSES
from ordeval.workflow.plan import plan as make_plan

ALL_MEASURES = [
    "NMD",
    "RSNOD",
    "RNOD",
    "RNADW",
    "RNOD2",
    "RNADW2",
    "NVD",
    "RNSS",
    "JSD",
    "DNKT",
    "DNKT_JSD",
    "DNKT_NMD",
    "DNKT_RNOD",
]
#: The papers' defaults, in the papers' order.
AGREEMENT = ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD"]
SIGNIFICANCE = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]
DATASETS = ["Sem16T4E", "Sem17T4E", *(f"STC3-DQ-{s}" for s in "AES"), *(f"DialEval1-DQ-{s}" for s in "AES")]
OC_DATASETS = ["Sem16T4C", "Sem17T4C"]
OC_ORDER = ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu"]
RUNS = {
    "Sem16T4E": 12,
    "Sem17T4E": 14,
    **{f"STC3-DQ-{s}": 19 for s in "AES"},
    **{f"DialEval1-DQ-{s}": 22 for s in "AES"},
    "Sem16T4C": 12,
    "Sem17T4C": 20,
}
TOPICS = {
    "Sem16T4E": 100,
    "Sem17T4E": 125,
    **{f"STC3-DQ-{s}": 390 for s in "AES"},
    **{f"DialEval1-DQ-{s}": 300 for s in "AES"},
    "Sem16T4C": 100,
    "Sem17T4C": 125,
}
NO_BASELINES = "it has no run BL-popularity-C or BL-uniform-C"


@pytest.fixture(scope="module")
def default():
    return make_plan(load(REPO / "config" / "config.yaml"), workdir=REPO)


@pytest.fixture(scope="module")
def replication():
    config = load(REPO / "config" / "replication.yaml")
    if SHARED_RAW.is_dir():
        return make_plan({**config, "data_root": str(SHARED_RAW)}, workdir=REPO)
    return make_plan(config, workdir=REPO, check_files=False)


# --------------------------------------------------------------------------- the default configuration


def test_default_plan_has_the_ten_data_sets_of_two_tasks(default):
    assert default.name == "synthetic" and default.results == "results/synthetic"
    assert list(default.datasets) == DATASETS + OC_DATASETS
    assert default.tasks == ["quantification", "classification"]
    assert default.task_datasets("quantification") == DATASETS
    assert default.task_datasets("classification") == OC_DATASETS
    for name, dataset in default.datasets.items():
        assert dataset.task == ("classification" if name in OC_DATASETS else "quantification")
        assert dataset.classes == ["-2", "-1", "0", "1", "2"]
        assert len(dataset.runs) == RUNS[name] and dataset.topics == TOPICS[name], name
        assert dataset.files == []  # all simulated
    assert default.datasets["STC3-DQ-A"].runs[:2] == ["BL-popularity-C", "BL-uniform-C"]
    assert default.data_root == REPO / "resources"


def test_every_registered_measure_is_scored_by_default(default):
    """... but those scored only where named (SemEval's EMD, which would repeat NMD in the tables)."""
    assert REGISTRY.default_names() == ALL_MEASURES
    assert [name for name in REGISTRY if name not in ALL_MEASURES] == ["EMD"]
    assert default.scored("quantification") == ALL_MEASURES
    assert all(default.datasets[name].measures == ALL_MEASURES for name in DATASETS)
    assert all(default.datasets[name].measures == OC_ORDER for name in OC_DATASETS)


def test_a_measure_scored_only_where_named_is_scored_when_listed_but_no_analysis_default(tmp_path):
    """Listing EMD scores it; no analysis takes it unless its own measures name it."""
    config = load(REPO / "config" / "config.yaml")
    config["measures"] = [*ALL_MEASURES, "EMD", *OC_ORDER]
    listed = make_plan(config, workdir=tmp_path)
    assert "EMD" in listed.datasets["Sem16T4E"].measures
    for analysis in ("agreement", "consistency", "significance", "leaderboard", "popularity", "topic_set_size"):
        assert "EMD" not in listed.measures(analysis, "quantification"), analysis
    config["leaderboard"]["measures"] = ["EMD", "NMD", *OC_ORDER]
    assert make_plan(config, workdir=tmp_path).measures("leaderboard", "quantification") == ["EMD", "NMD"]


def test_analyses_use_the_papers_measures_in_the_papers_order(default):
    assert default.measures("agreement", "quantification") == AGREEMENT
    assert default.measures("significance", "quantification") == SIGNIFICANCE
    assert default.measures("popularity", "quantification") == SIGNIFICANCE
    assert default.measures("consistency", "quantification") == ALL_MEASURES
    assert default.measures("leaderboard", "quantification") == SIGNIFICANCE
    for analysis in ("agreement", "consistency", "significance", "leaderboard"):
        assert default.measures(analysis, "classification") == OC_ORDER
    assert default.dataset_measures("agreement", "Sem16T4E") == AGREEMENT
    assert default.dnkt_combinations == ["JSD", "NMD", "RNOD"]
    assert (quantification.AGREEMENT_MEASURES, quantification.SIGNIFICANCE_MEASURES) == (
        tuple(AGREEMENT),
        tuple(SIGNIFICANCE),
    )


def test_popularity_covers_the_data_sets_with_both_baselines_and_says_why_not_the_others(default):
    assert default.popularity_datasets == DATASETS[2:]
    assert default.popularity_skipped == {name: NO_BASELINES for name in ["Sem16T4E", "Sem17T4E", *OC_DATASETS]}


def test_source_paths_name_each_file_by_the_entry_that_reads_it_as_configured(replication):
    """The files a data set reads, keyed by configuration entry (rule prepare_data's named inputs), each below the
    data_root as the configuration writes it: the same paths wherever the project lies."""
    sem16 = replication.source_paths("Sem16T4E")
    root = str(replication.config["data_root"]).rstrip("/")
    assert list(sem16)[:3] == ["gold", "runs_0", "runs_1"] and len(sem16) == 13
    assert sem16["gold"] == f"{root}/Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt"
    assert sem16["runs_11"] == f"{root}/Sem16T4CE/official/runs/E/PotTS-E.output"
    assert replication.source_paths("DialEval1-DQ-A") == {}  # simulated
    assert replication.source_paths("STC3-DQ-A") == {"gold": f"{root}/STC3-DQ/stc3-nddq-test-annotations.json"}
    assert replication.input_files()[0] == sem16["gold"]


LATEX = "latex/__init__.py"
MEASURES_MODULE = "tasks/quantification/measures.py"


def _library(plan, script) -> list[str]:
    return [str(path).replace("\\", "/") for path in script_files(REPO / "scripts" / f"{script}.py")]


@pytest.mark.parametrize(
    "script",
    [
        "datasets_table",
        "agreement_dataset",
        "agreement_summary",
        "agreement_dnkt",
        "consistency_summary",
        "significance_overlap",
        "significance_summary",
        "popularity_scatter",
        "popularity_tables",
        "leaderboard_tables",
        "topic_set_size_table",
        "classification_tables",
        "replication_dataset",
        "consistency_taus",
    ],  # which writes the LaTeX of its summaries itself
)
def test_editing_the_latex_helpers_reruns_the_table_jobs(default, script):
    library = _library(default, script)
    assert any(path.endswith(LATEX) for path in library)
    assert any(path.endswith("scripting.py") for path in library)


@pytest.mark.parametrize(
    "script",
    [
        "score_runs",
        "significance_pvalues",
        "agreement_heatmap",
        "dataset_figures",
        "significance_curves",
        "popularity_examples",
        "classification_figures",
        "prepare_data",
        "manifest",
    ],
)
def test_editing_the_latex_helpers_leaves_the_computing_and_figure_jobs_alone(default, script):
    assert not any(path.endswith(LATEX) for path in _library(default, script))


@pytest.mark.parametrize(
    "script, kernels",
    [
        ("agreement_dataset", ["kendall.py"]),
        ("agreement_dnkt", ["kendall.py"]),
        ("consistency_taus", ["kendall.py", "hsd.py"]),
        ("significance_pvalues", ["hsd.py"]),
    ],
)
def test_editing_a_numba_kernel_reruns_the_jobs_that_run_it(default, script, kernels):
    """The kernels are imported lazily (numba costs ~1 s a process): the scripts that run them name them."""
    library = _library(default, script)
    for kernel in kernels:
        assert any(path.endswith(f"ordeval/stats/{kernel}") for path in library), (script, kernel)


def test_every_script_is_run_by_a_rule_with_the_digest_of_its_code():
    """Every script of scripts/ is run by one rule, which carries the digest of the script's code as a params entry
    (``code=code("<script>")``: Snakemake re-runs the jobs whose code changed); every script runs its job in
    ``with job(snakemake)``."""
    rules = "\n".join(path.read_text() for path in (REPO / "workflow" / "rules").glob("*.smk"))
    for script in sorted((REPO / "scripts").glob("*.py")):
        assert f'"../../scripts/{script.name}"' in rules, script.name
        assert f'code=code("{script.stem}")' in rules, script.name
        assert "with job(snakemake)" in script.read_text(), script.name
    for block in rules.split("\nrule ")[1:]:  # every rule that makes files carries its code's digest
        name = block.split(":", 1)[0]
        assert "output:" not in block or "code=code(" in block, name


def test_editing_a_measure_reruns_scoring_not_the_jobs_that_read_the_scores(default):
    scoring = _library(default, "score_runs")
    preparing = _library(default, "prepare_data")
    assert any(path.endswith(MEASURES_MODULE) for path in scoring)
    for library in (scoring, preparing):
        assert any(path.endswith("tasks/quantification/data.py") for path in library)
    for script in ("consistency_taus", "agreement_dataset", "dataset_figures"):  # they read the scores
        assert not any(path.endswith(MEASURES_MODULE) for path in _library(default, script))


# --------------------------------------------------------------------------- the replication configuration


def test_replication_plan_reads_the_real_files_and_simulates_the_rest(replication):
    assert replication.name == "replication"
    assert list(replication.datasets) == DATASETS + OC_DATASETS
    assert replication.measures("agreement", "quantification") == AGREEMENT
    sem16c = replication.datasets["Sem16T4C"]  # the 12 official runs, in the official results' order
    assert sem16c.runs == [
        "twise",
        "ECNU",
        "PUT",
        "LYS",
        "finki",
        "INSIGHT-1",
        "ISTI-CNR",
        "YZU-NLP",
        "SentimentalITists",
        "BL-majority",
        "PotTS",
        "pkudblab",
    ]
    assert sem16c.files[0].endswith("official/gold/SemEval2016_task4_subtaskC_test_gold.txt")
    assert sem16c.files[11].endswith("official/runs/C/PotTS-C.output")
    assert replication.measures("significance", "quantification") == SIGNIFICANCE
    sem16 = replication.datasets["Sem16T4E"]
    assert [path.split("/")[-1] for path in sem16.files][:2] == [
        "SemEval2016_task4_subtaskE_test_gold.txt",
        "QCRI-E.output",
    ]
    assert sem16.runs == [
        "QCRI",
        "finki",
        "pkudblab",
        "NRU-HSE",
        "ECNU",
        "ISTI-CNR",
        "LYS",
        "INSIGHT-1",
        "BL-average",
        "HSENN",
        "BL-positive",
        "PotTS",
    ]
    assert replication.replicated_datasets == list(replication.datasets)
    assert replication.datasets["STC3-DQ-A"].files[0].endswith("STC3-DQ/stc3-nddq-test-annotations.json")
    assert replication.datasets["DialEval1-DQ-A"].files == []
    for name, dataset in replication.datasets.items():
        assert len(dataset.runs) == RUNS[name], name
    assert replication.popularity_datasets == DATASETS[2:]
    assert replication.popularity_skipped == {name: NO_BASELINES for name in ["Sem16T4E", "Sem17T4E", *OC_DATASETS]}
    if SHARED_RAW.is_dir():  # topics counted from the gold files, before any job
        assert (sem16.topics, replication.datasets["Sem17T4E"].topics) == (100, 125)
        assert (sem16c.topics, replication.datasets["Sem17T4C"].topics) == (100, 125)
        assert replication.datasets["STC3-DQ-A"].topics is None  # JSON: known once read


# --------------------------------------------------------------------------- errors


def _attempt(change, **keywords):
    config = copy.deepcopy(tiny_config())
    change(config)
    with pytest.raises(ConfigError) as error:
        make_plan(config, check_files=False, **keywords)
    return str(error.value)


def _rename(config, old, new):
    config["datasets"] = {new if name == old else name: spec for name, spec in config["datasets"].items()}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: c["agreement"].update(measures=["NMD", "RNOD3"]),
            "config key agreement.measures: unknown measure(s) RNOD3",
        ),
        (
            lambda c: c.update(popularity={"measures": ["NMD", "RNOD", "MAXD"]}),
            "config key popularity.measures: unknown measure(s) MAXD",
        ),
        (lambda c: c.update(measures=["NMD", "RNOD3"]), "config key measures: unknown measure(s) RNOD3"),
        (
            lambda c: (c.update(measures=["NMD", "RNOD"]), c["significance"].update(measures=["NMD", "JSD"])),
            "config key significance.measures: JSD not scored",
        ),
        (
            lambda c: c["datasets"]["TinySem"]["runs"].__setitem__(1, {"type": "simulate", "systems": 3}),
            "config key datasets.TinySem.runs: 4 runs; the analyses need at least 5",
        ),
        (
            lambda c: c["consistency"].update(subset_size=7),
            "config key consistency.subset_size: 7, but data set TinySem has 12 topics",
        ),
        (
            lambda c: c["datasets"]["TinyDQ"]["runs"].append({"type": "uniform", "name": "BL-popularity-C"}),
            "config key datasets.TinyDQ.runs: run name(s) BL-popularity-C used twice",
        ),
        (lambda c: c["consistency"].update(trails=3), "config key consistency: unexpected key(s) 'trails'"),
        (lambda c: c.update(sed=3), "config key (top level): unexpected key(s) 'sed'"),
        (lambda c: c.update(seed="abc"), "config key seed: 'abc' is not of type 'integer'"),
        (
            lambda c: c["datasets"]["TinySem"]["runs"][1].update(sytems=2),
            "config key datasets.TinySem.runs[1]: unexpected key(s) 'sytems'",
        ),
        (
            lambda c: c["datasets"]["TinySem"]["gold"].update(type="simulate_tweet"),
            "config key datasets.TinySem.gold.type: 'simulate_tweet' is not one of",
        ),
        (lambda c: _rename(c, "TinySem", ".."), "datasets...: data set '..' is a relative path"),
        (lambda c: _rename(c, "TinySem", "all"), "datasets.all: data set 'all' is a reserved word"),
        (lambda c: _rename(c, "TinySem", "mean_half"), "datasets.mean_half: data set 'mean_half' starts like"),
        (
            lambda c: _rename(c, "TinySem", "Tiny\nSem"),
            "config key datasets.Tiny\\nSem: 'Tiny\\nSem' contains the control",
        ),
        (
            lambda c: c["datasets"]["TinySem"]["runs"][0].update(name="BL\npositive"),
            "config key datasets.TinySem.runs[0].name: 'BL\\npositive' contains the control character '\\n'",
        ),
        (
            lambda c: c["datasets"]["TinySem"]["runs"][0].update(name="TOTAL"),
            "datasets.TinySem.runs: run 'TOTAL' is a reserved word",
        ),
        (lambda c: c.update(name=".."), "name: configuration name '..' is a relative path"),
        (
            lambda c: c.update(plugins=["no_such_plugin.py"]),
            "config key plugins[0]: plugin file 'no_such_plugin.py' does not exist",
        ),
    ],
)
def test_config_errors_name_the_key(change, expected):
    message = _attempt(change)
    assert expected in message
    assert "\n" not in message  # one line


def test_missing_files_are_listed_with_the_entries_that_ask_for_them(tmp_path):
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"]["Files"] = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [{"type": "semeval_dist", "path": "run.txt", "name": "R1"}, {"type": "simulate", "systems": 4}],
    }
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    message = str(error.value)
    assert f"{tmp_path / 'gold.txt'} (asked for by datasets.Files.gold)" in message
    assert f"{tmp_path / 'run.txt'} (asked for by datasets.Files.runs[0])" in message
    planned = make_plan(config, check_files=False)  # e.g. to list the targets
    assert planned.datasets["Files"].runs == ["R1", "SIM01", "SIM02", "SIM03", "SIM04"]
    assert planned.datasets["Files"].topics is None


# --------------------------------------------------------------------------- plugins


@pytest.fixture
def plugin(tmp_path):
    """A plugin file registering MAXDIFF (lower is better) and HIGHGOOD (higher is better); both are
    unregistered afterwards (the registry is module state, shared by every test of the process)."""
    path = tmp_path / "my_measures.py"
    path.write_text(PLUGIN_TEMPLATE.format(low="MAXDIFF", high="HIGHGOOD"))
    yield path
    for name in ("MAXDIFF", "HIGHGOOD"):
        REGISTRY._measures.pop(name, None)


def test_a_plugin_measure_appears_in_every_analysis_without_other_configuration(plugin, tmp_path):
    config = tiny_config(plugins=[plugin.name])
    del config["measures"]  # the default: every registered measure
    planned = make_plan(config, workdir=tmp_path)
    assert planned.plugin_files == [str(plugin.resolve())]
    assert planned.scored("quantification") == [*ALL_MEASURES, "MAXDIFF", "HIGHGOOD"]
    for analysis in ANALYSES:
        measures = planned.measures(analysis, "quantification")
        assert measures[-2:] == ["MAXDIFF", "HIGHGOOD"], analysis  # after the papers' measures
    assert planned.measures("agreement", "quantification")[:-2] == AGREEMENT
    assert planned.measures("significance", "quantification")[:-2] == SIGNIFICANCE
    assert planned.datasets["TinyDQ"].measures[-2:] == ["MAXDIFF", "HIGHGOOD"]  # a score table each (score_table)
    # Editing the plugin re-runs scoring: the rules that load plugins take them as inputs.
    scoring = (REPO / "workflow" / "rules" / "scoring.smk").read_text()
    assert "plugins=PLUGINS" in scoring
    # Planning again (as every Snakemake job does) does not register the measures twice.
    assert make_plan(config, workdir=tmp_path).scored("quantification") == planned.scored("quantification")


def test_a_plugin_measure_is_scored_with_its_direction(plugin, tmp_path):
    make_plan(tiny_config(plugins=[str(plugin)]), workdir=tmp_path)
    dataset = built(TASK, "TinyDQ", tiny_config()["datasets"]["TinyDQ"], tmp_path, 7)
    stack = TASK.score(dataset, ["NMD", "MAXDIFF", "HIGHGOOD"]).stack
    assert stack.lower_is_better == [True, True, False]
    assert stack.display == ["NMD", "MaxDiff", "HIGHGOOD"]
    # sum_i min(p_i, p*_i) = 1 - NVD
    np.testing.assert_allclose(stack.matrix("HIGHGOOD"), 1 - REGISTRY["NVD"](dataset.runs, dataset.gold).T)


def test_a_broken_plugin_is_a_config_error_naming_it(tmp_path):
    (tmp_path / "broken.py").write_text("raise RuntimeError('boom')\n")
    message = _attempt(lambda c: c.update(plugins=["broken.py"]), workdir=tmp_path)
    assert "config key plugins[0]: plugin 'broken.py' failed: boom" in message


def test_plugins_of_the_same_name_in_two_folders_are_both_loaded(tmp_path):
    names = {"first": "PLUGIN_A", "second": "PLUGIN_B"}
    try:
        for folder, name in names.items():
            (tmp_path / folder).mkdir()
            (tmp_path / folder / "extra.py").write_text(PLUGIN_TEMPLATE.format(low=name, high=f"{name}_HIGH"))
            config = tiny_config(plugins=["extra.py"])
            del config["measures"]
            planned = make_plan(config, workdir=tmp_path / folder)
            assert planned.plugin_files == [str((tmp_path / folder / "extra.py").resolve())]
            assert name in planned.measures("agreement", "quantification")
    finally:
        for name in names.values():
            for registered in (name, f"{name}_HIGH"):
                REGISTRY._measures.pop(registered, None)
