"""What the rule files ask of a :class:`~ordeval.workflow.plan.Plan` besides its paths: the threads and resources of
a job from its kind of work and data set, which outputs the HTML report shows (with caption and category),
and the lists of files the manifest and the reports take in. (The library files a script depends on:
:meth:`Plan.library`.) The ``.smk`` files write every input and output path template themselves; this module
only answers the questions that depend on the configuration. Named ``pipeline``, not ``workflow``, beside
Snakemake's own ``workflow`` object. Tested without Snakemake (``tests/test_resources.py``,
``tests/test_manifest.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ordeval.reports import catalogue
from ordeval.workflow.plan import Plan
from ordeval.workflow.resources import UNKNOWN_TOPICS, DataSize, Resources, estimate


@dataclass(frozen=True)
class ReportMark:
    """How Snakemake's HTML report shows a rule's output: caption file, category and subcategory (a string
    whose ``{wildcards}`` Snakemake fills, or a function of the wildcards)."""

    caption: str
    category: str
    subcategory: str | Callable | None


def report_marks(plan: Plan) -> dict[str, ReportMark]:
    """Every rule output template the HTML report shows (a reported entry's format, its wildcards left) -> its
    :class:`ReportMark`. Categories are numbered with two digits in catalogue order among those this plan
    shows (``00 Data``, ...); the subcategory is the data set of a per-data-set output, the task of a per-task
    summary, ``DNKT_<M>`` of a DNKT_M table."""
    outputs = plan.reported_outputs()
    keys = list(dict.fromkeys(output.key for output in outputs))
    shown = [name for name in catalogue.CATEGORIES if any(catalogue.ENTRIES[key].category == name for key in keys)]
    tasks = {plan.suffix(task): task for task in plan.tasks}
    marks = {}
    for output in outputs:
        entry = catalogue.ENTRIES[output.key]
        category = f"{shown.index(entry.category):02d} {catalogue.CATEGORIES[entry.category]}"
        if "dataset" in entry.per:
            subcategory = "{dataset}"
        elif "measure" in entry.per:
            subcategory = "DNKT_{measure}"
        elif "task_suffix" in entry.per:
            subcategory = _task_of(tasks)
        else:
            subcategory = None
        marks[output.template] = ReportMark(output.caption, category, subcategory)
    return marks


def report_captions(plan: Plan) -> dict[str, list[dict]]:
    """What rule report_captions writes (its params): per caption file (``report/captions/<name>.rst``, by
    name), the caption of each file of its rule output, ``{"wildcards", "caption", "table"}``: the wildcards
    that pick the file (those of the output's template), its caption from the catalogue, and the CSV table it
    shows (None for a figure)."""
    return {
        Path(caption).stem: [
            {
                "wildcards": {name: value for name, value in output.values.items() if f"{{{name}}}" in output.template},
                "caption": plan.caption(output.key, **output.values),
                "table": output.path if output.path.endswith(".csv") else None,
            }
            for output in outputs
        ]
        for caption, outputs in plan.caption_files().items()
    }


def _task_of(tasks: dict[str, str]) -> Callable:
    """The subcategory function of a per-task summary: its task's name from the wildcard ``task_suffix``."""
    return lambda wildcards: tasks[wildcards.task_suffix]


def data_size(plan: Plan, dataset: str) -> DataSize:
    """The size of a data set as the plan knows it (topics unknown before it is built: UNKNOWN_TOPICS)."""
    data = plan.datasets[dataset]
    return DataSize(
        topics=data.topics or UNKNOWN_TOPICS,
        runs=max(1, len(data.runs)),
        measures=max(1, len(data.measures)),
        classes=max(2, len(data.classes)),
    )


def cost(plan: Plan, kind: str, dataset: str | None = None) -> Resources:
    """threads, mem_mb and runtime (minutes) of a job of ``kind`` (:data:`ordeval.workflow.resources.KINDS`) on
    ``dataset``, or, for a job that gathers them, over every data set; times the configuration's ``resources``
    factors."""
    names = [dataset] if dataset is not None else list(plan.datasets)
    sizes = [data_size(plan, name) for name in names]
    factors = plan.config["resources"]
    found = estimate(kind, sizes, plan.parameters(), threads=plan.config["threads"])
    return found.scaled(factors["memory"], factors["runtime"])


def final_outputs(plan: Plan) -> list[str]:
    """The manifest, and the LaTeX report and its PDF (if wanted), which are made from it: the outputs that
    depend on every other one (the manifest records their SHA-256), so asking for these makes them all."""
    final = {plan.path(key) for key in ("report/manifest", "report/tex")} | set(plan.paths("report/pdf"))
    return [path for path in plan.targets("report") if path in final]


def hashed_outputs(plan: Plan) -> list[str]:
    """Every output whose SHA-256 the manifest records: every target but :func:`final_outputs` (sorted)."""
    final = set(final_outputs(plan))
    return sorted(path for path in plan.targets() if path not in final)


def report_items(plan: Plan) -> list[tuple[str, str, str]]:
    """(section, data set, path) of every table fragment and figure of the LaTeX report, in catalogue order; the
    data set is "" for an output over several data sets."""
    items = []
    for entry in catalogue.entries():
        if not entry.section:
            continue
        for values in plan.combinations(entry.key):
            dataset = values.get("dataset", "") if "dataset" in entry.per else ""
            for ext in entry.formats:
                path = f"{plan.results}/" + entry.pattern.format(**{**values, "ext": ext})
                if path.endswith((".tex", ".pdf", ".png")) and not path.startswith(f"{plan.results}/report/"):
                    items.append((entry.section, dataset, path))
    return items


def report_parameters(plan: Plan) -> str:
    """The analysis parameters, as the LaTeX report's opening paragraph states them (from
    :meth:`~ordeval.workflow.plan.Plan.parameters`)."""
    p = plan.parameters()
    return (
        f"seed {p['seed']}; Kendall's tau-{p['kendall']}; ranking agreement CIs at level {p['ci_level']} "
        f"({p['ci_method']}); "
        f"consistency with {p['consistency_trials']} random splits per condition (halves, and two subsets of "
        f"{p['subset_size']} topics), randomised Tukey HSD with B = {p['consistency_hsd_trials']} and "
        f"alpha = {p['consistency_alpha']}; significance tests by the randomised Tukey HSD with "
        f"B = {p['significance_hsd_trials']} and alpha = {p['significance_alpha']}"
    )
