# Helpers shared by all rule files. Output roots, the configured data sets and measures,
# and the library files each rule depends on.
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ordeval.datasets import check_files_exist, declared_run_names, source_files
from ordeval.measures import MEASURES
from ordeval.modules import module_files

RESULTS = f"results/{config['name']}"
DATASETS = list(config["datasets"])
MEASURE_NAMES = list(config.get("measures") or MEASURES)

_unknown_measures = [name for name in MEASURE_NAMES if name not in MEASURES]
if _unknown_measures:
    raise ValueError(
        f"config 'measures': unknown measure(s) {', '.join(_unknown_measures)}; "
        f"registered in scripts/ordeval/measures.py: {', '.join(MEASURES)}"
    )


def library(*modules):
    """The ordeval source files that a rule using ``modules`` depends on."""
    return [str(path) for path in module_files(*modules)]


def dataset_files(wildcards):
    """Input files of one data set; a missing one is an error naming the config entry."""
    spec = config["datasets"][wildcards.dataset]
    check_files_exist({wildcards.dataset: spec}, config["data_root"])
    return [
        str(path)
        for path, _ in source_files(wildcards.dataset, spec, config["data_root"])
    ]


def provenance_path(dataset):
    return f"{RESULTS}/data/{dataset}/provenance.json"


def score_paths(dataset, measures):
    """{measure: score matrix path} of one data set."""
    return {m: f"{RESULTS}/scores/{dataset}/{m}.tsv" for m in measures}


def analysis_measures(section):
    """Measures of an analysis section: its ``measures`` list, else every scored measure."""
    measures = list(config[section].get("measures") or MEASURE_NAMES)
    unscored = [name for name in measures if name not in MEASURE_NAMES]
    if unscored:
        raise ValueError(
            f"config '{section}.measures': {', '.join(unscored)} not among the scored "
            f"'measures' ({', '.join(MEASURE_NAMES)})"
        )
    return measures


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
    return data_targets() + score_targets() + popularity_targets()
