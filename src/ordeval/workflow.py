"""What the rule files ask of a :class:`~ordeval.plan.Plan` besides its paths: threads and resources of
a job, which outputs the HTML report shows (with caption and category), the lists of files the manifest
and the reports take in, and the log paths. (The library files a job depends on: :meth:`Plan.library`.)
The ``.smk`` files write every input and output path template themselves; this module only answers the
questions that depend on the configuration. Tested without Snakemake (``tests/test_resources.py``,
``tests/test_manifest.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import catalogue
from .plan import Plan
from .resources import UNKNOWN_TOPICS, DataSize, cost_settings, estimate

#: Rows of a table shown in the HTML report (the whole table is attached as CSV).
REPORT_TABLE_ROWS = 200


@dataclass(frozen=True)
class ReportMark:
    """How Snakemake's HTML report shows one output: caption file, category and subcategory."""

    caption: str
    category: str
    subcategory: str


def data_size(plan: Plan, dataset: str) -> DataSize:
    """The size of a data set as the plan knows it (topics unknown before it is built: UNKNOWN_TOPICS)."""
    data = plan.datasets[dataset]
    return DataSize(
        topics=data.topics or UNKNOWN_TOPICS,
        runs=max(1, len(data.runs)),
        measures=max(1, len(data.measures)),
        classes=max(2, len(data.classes)),
    )


def resources(plan: Plan, job: str) -> dict[str, int]:
    """threads, mem_mb and runtime (minutes) of ``job`` (a rule: one job over every data set)."""
    sizes = [data_size(plan, name) for name in plan.datasets]
    return estimate(job, sizes, cost_settings(plan.config), threads=plan.config["threads"]).as_dict()


def report_marks(plan: Plan) -> dict[str, ReportMark]:
    """Every output the HTML report shows (an entry's reported format) -> its :class:`ReportMark`. Categories
    are numbered with two digits in catalogue order among those this plan shows (``00 Data``, ...).
    Subcategory: the data set of a per-data-set output, the task of a per-task summary, ``DNKT_<M>``
    of a DNKT_M table, else none."""
    marks = {}
    keys = [key for key in plan.reported_keys() if plan.combinations(key)]
    shown = [name for name in catalogue.CATEGORIES if any(catalogue.ENTRIES[key].category == name for key in keys)]
    for key in keys:
        entry = catalogue.ENTRIES[key]
        category = f"{shown.index(entry.category):02d} {catalogue.CATEGORIES[entry.category]}"
        for values in plan.combinations(key):
            path = plan.path(key, entry.reported_format, **values)
            if "dataset" in values:
                subcategory = values["dataset"]
            elif "combination" in values:
                subcategory = "DNKT_" + values["combination"]
            else:
                subcategory = values.get("task", "")
            marks[path] = ReportMark(plan.caption_of(path, key), category, subcategory)
    return marks


def final_outputs(plan: Plan) -> list[str]:
    """The manifest, and the LaTeX report and its PDF (if wanted), which are made from it: the outputs that
    depend on every other one (the manifest records their SHA-256), so asking for these makes them all."""
    final = {plan.path(key) for key in ("report/manifest", "report/tex")} | set(plan.paths("report/pdf"))
    return [path for path in plan.targets("report") if path in final]


def hashed_outputs(plan: Plan) -> list[str]:
    """Every output whose SHA-256 the manifest records: every target but :func:`final_outputs` (sorted)."""
    final = set(final_outputs(plan))
    return sorted(path for path in plan.targets() if path not in final)


def report_items(plan: Plan) -> list[tuple[str, str]]:
    """(section, path) of every table fragment and figure of the LaTeX report, in catalogue order."""
    items = []
    for entry in catalogue.entries():
        if not entry.section:
            continue
        for path in plan.paths(entry.key):
            if path.endswith((".tex", ".pdf", ".png")) and not path.startswith(f"{plan.results}/report/"):
                items.append((entry.section, path))
    return items


def report_parameters(plan: Plan) -> str:
    """The analysis parameters, as the LaTeX report's opening paragraph states them (from
    :meth:`~ordeval.plan.Plan.parameters`)."""
    p = plan.parameters()
    return (
        f"seed {p['seed']}; Kendall's tau-{p['kendall']}; ranking agreement CIs at level {p['ci_level']} "
        f"({p['ci_method']}); "
        f"consistency with {p['trials']} random splits per condition (halves, and two subsets of "
        f"{p['subset_size']} topics), randomised Tukey HSD with B = {p['consistency_hsd_trials']} and "
        f"alpha = {p['consistency_alpha']}; significance tests by the randomised Tukey HSD with "
        f"B = {p['hsd_trials']} and alpha = {p['alpha']}"
    )


def log_path(plan: Plan, job: str, dataset: str | None = None) -> str:
    """The log file of a job (``results/<name>/logs/<job>.log``) or of its work on one data set
    (``results/<name>/logs/<job>/<dataset>.log``)."""
    return f"{plan.results}/logs/{job}.log" if dataset is None else f"{plan.results}/logs/{job}/{dataset}.log"
