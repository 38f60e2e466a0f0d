# Helpers shared by all rule files. Output roots, the configured data sets and measures,
# and the library files each rule depends on.
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ordeval import paper
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


def scored_measures(what, names):
    """``names`` (the measures of config entry ``what``), checked to be among the scored measures."""
    unscored = [name for name in names if name not in MEASURE_NAMES]
    if unscored:
        raise ValueError(
            f"config '{what}': measure(s) {', '.join(unscored)} are not scored; "
            f"add them to 'measures' (scored: {', '.join(MEASURE_NAMES)})"
        )
    return list(names)


def analysis_measures(section, default=None):
    """Measures of config section ``section``: its explicit list (every one must be scored), else
    ``default`` (or every measure) plus any measure added to the registry, restricted to the scored.
    """
    if config[section].get("measures"):
        return scored_measures(f"{section}: measures", config[section]["measures"])
    names = paper.with_added(default) if default else MEASURE_NAMES
    return [name for name in names if name in MEASURE_NAMES]


# Ranking agreement (SPEC 4.1) and consistency (SPEC 4.2).
AGREEMENT_MEASURES = analysis_measures("agreement", default=paper.AGREEMENT)
if config["agreement"].get("dnkt_combinations"):
    DNKT_COMBINATIONS = list(config["agreement"]["dnkt_combinations"])
    for _measure in DNKT_COMBINATIONS:
        scored_measures(
            "agreement: dnkt_combinations", ["DNKT", _measure, f"DNKT_{_measure}"]
        )
else:
    DNKT_COMBINATIONS = [
        m
        for m in paper.DNKT_COMBINATIONS
        if {"DNKT", m, f"DNKT_{m}"} <= set(MEASURE_NAMES)
    ]
CONSISTENCY_MEASURES = analysis_measures("consistency")
CONSISTENCY_CONDITIONS = ["half", "10v10"]
SIGNIFICANCE_MEASURES = analysis_measures("significance", default=paper.SIGNIFICANCE)


#: Categories of Snakemake's HTML report (`snakemake --report results/<name>/report.html`), by caption
#: file in workflow/report/.
REPORT_CATEGORIES = {
    "scores": "1 Scores",
    "agreement": "2 Ranking agreement",
    "consistency": "3 Ranking consistency",
    "discriminative_power": "4 Discriminative power",
    "dp_curves": "4 Discriminative power",
    "sso": "5 Significance overlap",
    "contradictions": "6 Contradictions",
    "popularity": "7 Popularity vs Uniform",
    "paper": "8 Paper and provenance",
    "manifest": "8 Paper and provenance",
}


def reported(paths, caption, subcategory=None):
    """Mark output path(s) for the HTML report, with workflow/report/<caption>.rst as caption;
    ``subcategory`` (e.g. "{dataset}") may use the rule's wildcards."""
    flag = lambda path: report(
        path,
        caption=f"../report/{caption}.rst",
        category=REPORT_CATEGORIES[caption],
        subcategory=subcategory,
    )
    return flag(paths) if isinstance(paths, str) else [flag(path) for path in paths]


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
POPULARITY_MEASURES = analysis_measures("popularity", default=paper.POPULARITY)
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


def report_inputs():
    """Every table fragment and figure of the analyses, in section order, for the report."""
    analyses = (
        agreement_targets()
        + consistency_targets()
        + significance_targets()
        + popularity_targets()
    )
    return [path for path in analyses if path.endswith((".tex", ".pdf", ".png"))]


def report_pdf_wanted():
    """Config report: pdf: true, false, or auto (only where a TeX engine is installed, so that the
    main job runs on a machine with Python alone; `snakemake <results>/report/ordeval.pdf` then
    fails with a message naming the packages to install)."""
    setting = config["report"]["pdf"]
    if setting == "auto":
        return bool(shutil.which("pdflatex"))
    return bool(setting)


def report_targets():
    targets = [f"{RESULTS}/manifest.json", f"{RESULTS}/report/ordeval.tex"]
    return targets + ([f"{RESULTS}/report/ordeval.pdf"] if report_pdf_wanted() else [])


def all_targets():
    return (
        data_targets()
        + score_targets()
        + agreement_targets()
        + consistency_targets()
        + significance_targets()
        + popularity_targets()
        + report_targets()
    )
