# Helpers shared by all rule files. Output roots, the configured data sets and measures,
# and the library files each rule depends on.
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ordeval.datasets import check_files_exist, source_files
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


def scored_measures(section, names):
    """``names`` (measures of config section ``section``), checked to be among the scored measures."""
    unscored = [name for name in names if name not in MEASURE_NAMES]
    if unscored:
        raise ValueError(
            f"config '{section}': measure(s) {', '.join(unscored)} are not scored; "
            f"add them to 'measures' (scored: {', '.join(MEASURE_NAMES)})"
        )
    return list(names)


# Ranking agreement (SPEC 4.1) and consistency (SPEC 4.2).
AGREEMENT_MEASURES = scored_measures("agreement", config["agreement"]["measures"])
DNKT_COMBINATIONS = list(config["agreement"]["dnkt_combinations"])
for _measure in DNKT_COMBINATIONS:
    scored_measures(
        "agreement: dnkt_combinations", ["DNKT", _measure, f"DNKT_{_measure}"]
    )
CONSISTENCY_MEASURES = scored_measures(
    "consistency", config["consistency"].get("measures") or MEASURE_NAMES
)
CONSISTENCY_CONDITIONS = ["half", "10v10"]


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


# Targets of each stage; rule all requests them all.
def data_targets():
    return expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=DATASETS)


def score_targets():
    return expand(f"{RESULTS}/scores/{{dataset}}/means.tsv", dataset=DATASETS)


def agreement_targets():
    tables = f"{RESULTS}/tables/agreement"
    return (
        expand(f"{tables}/{{dataset}}.{{ext}}", dataset=DATASETS, ext=["csv", "tex"])
        + expand(
            f"{tables}/{{table}}.{{ext}}",
            table=["mean", "similarity"],
            ext=["csv", "tex"],
        )
        + expand(
            f"{tables}/dnkt_{{m}}.{{ext}}", m=DNKT_COMBINATIONS, ext=["csv", "tex"]
        )
        + expand(
            f"{RESULTS}/figures/agreement/mean_heatmap.{{ext}}", ext=["pdf", "png"]
        )
    )


def consistency_paths(pattern):
    """``RESULTS/pattern`` for each consistency condition, in CONSISTENCY_CONDITIONS order
    (double the braces of the other wildcards, e.g. ``{{dataset}}``)."""
    return expand(f"{RESULTS}/{pattern}", condition=CONSISTENCY_CONDITIONS)


def consistency_targets():
    tables, figures = f"{RESULTS}/tables/consistency", f"{RESULTS}/figures/consistency"
    per_dataset = [
        f"{tables}/{{dataset}}_{{condition}}{part}.{ext}"
        for part in ["", "_pairs"]
        for ext in ["csv", "tex"]
    ] + [f"{figures}/{{dataset}}_{{condition}}.{ext}" for ext in ["pdf", "png"]]
    return expand(
        per_dataset, dataset=DATASETS, condition=CONSISTENCY_CONDITIONS
    ) + expand(
        f"{tables}/mean_{{condition}}.{{ext}}",
        condition=CONSISTENCY_CONDITIONS,
        ext=["csv", "tex"],
    )


def provenance_paths(datasets):
    return [provenance_path(dataset) for dataset in datasets]


def combination_score_paths(wildcards):
    """Score tables of DNKT, M and DNKT_M (M = wildcards.combination) of every data set, in that order."""
    measures = ["DNKT", wildcards.combination, f"DNKT_{wildcards.combination}"]
    return [path for d in DATASETS for path in score_paths(d, measures).values()]


def all_targets():
    return (
        data_targets() + score_targets() + agreement_targets() + consistency_targets()
    )
