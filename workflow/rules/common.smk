# Helpers shared by all rule files. Output roots, the configured data sets and measures,
# and the library files each rule depends on.
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ordeval.datasets import check_files_exist, declared_run_names, source_files
from ordeval.measures import MEASURES
from ordeval.manifest import git_commit
from ordeval.modules import module_files

RESULTS = f"results/{config['name']}"
DATASETS = list(config["datasets"])
MEASURE_NAMES = list(config.get("measures") or MEASURES)
# Recorded in the manifest; a new commit re-runs only the manifest.
GIT_COMMIT = git_commit(workflow.basedir)

_unknown_measures = [name for name in MEASURE_NAMES if name not in MEASURES]
if _unknown_measures:
    raise ValueError(
        f"config 'measures': unknown measure(s) {', '.join(_unknown_measures)}; "
        f"registered in scripts/ordeval/measures.py: {', '.join(MEASURES)}"
    )


def analysis_measures(section):
    """Measures that the tables of config section ``section`` show (default: all scored)."""
    names = list(config[section].get("measures") or MEASURE_NAMES)
    unscored = [name for name in names if name not in MEASURE_NAMES]
    if unscored:
        raise ValueError(
            f"config '{section}: measures': {', '.join(unscored)} not scored; "
            f"add them to 'measures' (scored: {', '.join(MEASURE_NAMES)})"
        )
    return names


SIGNIFICANCE_MEASURES = analysis_measures("significance")


def library(*modules):
    """The ordeval source files that a rule using ``modules`` depends on."""
    return [str(path) for path in module_files(*modules)]


def dataset_file_list(dataset):
    """Input files of one data set; a missing one is an error naming the config entry."""
    spec = config["datasets"][dataset]
    check_files_exist({dataset: spec}, config["data_root"])
    return [str(path) for path, _ in source_files(dataset, spec, config["data_root"])]


def dataset_files(wildcards):
    return dataset_file_list(wildcards.dataset)


def all_dataset_files():
    return [path for dataset in DATASETS for path in dataset_file_list(dataset)]


def provenance_path(dataset):
    return f"{RESULTS}/data/{dataset}/provenance.json"


def significance_path(dataset, table):
    """``pvalues`` or ``run_groups`` table of one data set, written by significance_pvalues."""
    return f"{RESULTS}/significance/{dataset}/{table}.tsv"


def score_paths(dataset, measures):
    """{measure: score matrix path} of one data set."""
    return {m: f"{RESULTS}/scores/{dataset}/{m}.tsv" for m in measures}


# Popularity vs Uniform (SPEC 4.6): the data sets whose runs include both baselines.
POPULARITY_MEASURES = analysis_measures("popularity")
POPULARITY_RUNS = [
    config["popularity"]["popularity_run"],
    config["popularity"]["uniform_run"],
]


def popularity_skipped():
    """{data set: why it is left out} for the data sets lacking either run."""
    skipped = {}
    for name in DATASETS:
        names = declared_run_names(config["datasets"][name], config["data_root"])
        missing = [run for run in POPULARITY_RUNS if run not in names]
        if missing:
            skipped[name] = f"it has no run {' or '.join(missing)}"
    return skipped


POPULARITY_SKIPPED = popularity_skipped()
POPULARITY_DATASETS = [name for name in DATASETS if name not in POPULARITY_SKIPPED]


def popularity_scores():
    """{data set: {measure: score table}} of the compared data sets."""
    return {
        name: score_paths(name, POPULARITY_MEASURES) for name in POPULARITY_DATASETS
    }


def popularity_examples():
    """What the example figure reads per compared data set; it needs the deltas of NMD and RNOD."""
    if not {"NMD", "RNOD"} <= set(POPULARITY_MEASURES):
        return {}
    return {
        name: {
            "classes": config["datasets"][name]["classes"],
            "gold": f"{RESULTS}/data/{name}/gold.tsv",
            "runs": f"{RESULTS}/data/{name}/runs.tsv",
            "scores": score_paths(name, ["NMD", "RNOD"]),
        }
        for name in POPULARITY_DATASETS
    }


def popularity_examples_skipped():
    skipped = dict(POPULARITY_SKIPPED)
    if not popularity_examples():
        reason = (
            "the examples need NMD and RNOD among the measures of config 'popularity'"
        )
        skipped.update({name: reason for name in POPULARITY_DATASETS})
    return skipped


def popularity_score_files():
    return [path for paths in popularity_scores().values() for path in paths.values()]


def popularity_example_files():
    return [
        path
        for files in popularity_examples().values()
        for path in (files["gold"], files["runs"], *files["scores"].values())
    ]


# Targets of each stage; rule all requests them all.
def data_targets():
    return expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=DATASETS)


def score_targets():
    return expand(f"{RESULTS}/scores/{{dataset}}/means.tsv", dataset=DATASETS)


def significance_targets():
    tables = f"{RESULTS}/tables"
    return (
        expand(
            f"{tables}/{{table}}.{{ext}}",
            table=[
                "discriminative_power",
                "contradiction_counts",
                "contradictions",
                "contradictions_grouped",
            ],
            ext=["csv", "tex"],
        )
        + expand(
            f"{tables}/sso/{{dataset}}.{{ext}}", dataset=DATASETS, ext=["csv", "tex"]
        )
        + expand(
            f"{RESULTS}/figures/dp_curves/{{name}}.{{ext}}",
            name=DATASETS + ["all"],
            ext=["pdf", "png"],
        )
    )


def report_targets():
    return [f"{RESULTS}/manifest.json"]


def popularity_targets():
    tables = f"{RESULTS}/tables"
    figures = f"{RESULTS}/figures"
    return [
        f"{tables}/popularity_vs_uniform.csv",
        f"{tables}/popularity_vs_uniform.tex",
        f"{tables}/popularity_deltas.csv",
        f"{figures}/popularity_examples.pdf",
        f"{figures}/popularity_examples.png",
    ] + expand(
        [
            f"{figures}/popularity_scatter/{{dataset}}.pdf",
            f"{figures}/popularity_scatter/{{dataset}}.png",
            f"{tables}/popularity_scatter/{{dataset}}.csv",
            f"{tables}/popularity_scatter/{{dataset}}.tex",
        ],
        dataset=POPULARITY_DATASETS,
    )


def all_targets():
    return (
        data_targets()
        + score_targets()
        + significance_targets()
        + popularity_targets()
        + report_targets()
    )
