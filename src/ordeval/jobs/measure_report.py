"""Rule measure_report: each measure of ``measure_reports`` (``ordeval evaluate-measure``) next to the
established measures of its task, from the tables of the pipeline's analyses: Markdown, HTML, LaTeX and,
where a TeX engine is wanted, the PDF (``results/<name>/measures/<measure>/report.*``)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..files import write_text
from ..measure_report import build_report, html, latex, markdown
from ..plugins import load_plugins
from ..properties import check_measure
from ..tasks import get_task
from . import Job, files_by

log = logging.getLogger("measure_report")


def run(job: Job):
    """params: reports ({measure: {task, datasets, suffix}}), datasets and tasks (those of the reported
    measures, in the order of the inputs), conditions, plugins, and the property checks' trials and seed.
    Inputs ``agreement``, ``topic_set_size`` one per data set, ``consistency`` one per data set and
    condition (data set first), ``similarity``, ``power`` one per task; outputs ``md``, ``html``, ``tex``
    (and ``pdf``) one per measure."""
    params = job.params
    load_plugins(params["plugins"])
    inputs, conditions = job.input, params["conditions"]
    datasets = files_by(params["datasets"], agreement=inputs["agreement"], topic_set_size=inputs["topic_set_size"])
    tasks = files_by(params["tasks"], similarity=inputs["similarity"], power=inputs["power"])
    consistency = {(dataset, condition): inputs["consistency"][index * len(conditions) + offset]
                   for index, dataset in enumerate(params["datasets"])
                   for offset, condition in enumerate(conditions)}  # fmt: skip
    names = list(params["reports"])
    outputs = {key: job.output[key] for key in ("md", "html", "tex")}
    if job.output.get("pdf"):
        outputs["pdf"] = job.output["pdf"]
    per_measure = files_by(names, **outputs)
    built = {}
    for name in names:
        settings = params["reports"][name]
        measure = get_task(settings["task"]).registry[name]
        mine = settings["datasets"]
        files = {
            "agreement": {d: datasets[d]["agreement"] for d in mine},
            "similarity": tasks[settings["task"]]["similarity"],
            "consistency": {(d, c): consistency[(d, c)] for d in mine for c in conditions},
            "power": tasks[settings["task"]]["power"],
            "topic_set_size": {d: datasets[d]["topic_set_size"] for d in mine},
        }
        report = build_report(measure, files, check_measure(measure, trials=params["trials"], seed=params["seed"]))
        paths = per_measure[name]
        write_text(markdown(report), paths["md"])
        write_text(html(report), paths["html"])
        write_text(latex(report), paths["tex"])
        if "pdf" in paths:
            from ..latex.report import compile_pdf

            compiled = compile_pdf(paths["tex"])
            if Path(compiled) != Path(paths["pdf"]).resolve():
                raise RuntimeError(f"{compiled}: expected {paths['pdf']}")
        log.info("%s (%s): %d sections", name, settings["task"], len(report.sections))
        built[name] = report
    return built
