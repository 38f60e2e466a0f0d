"""Rule score_runs: per-topic score matrix of every run for every measure of the data set's task,
the means per run, the measures' directions, and the task's own tables (e.g. 0/0 conventions)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..plugins import load_plugins
from ..scores import write_scores
from ..tasks import get_task
from . import Job

log = logging.getLogger("score_runs")


def run(job: Job):
    """params: dataset, task, spec, measures, plugins. Writes ``scores/<dataset>/``: ``<measure>.tsv``,
    ``means.tsv``, ``measures.tsv``, ``stack.npz`` and the task's extra tables."""
    params = job.params
    load_plugins(params.get("plugins", []))
    task = get_task(params["task"])
    folder = Path(job.output["means"]).parent
    data = task.read_canonical(params["dataset"], params["spec"], Path(job.input["provenance"]).parent)
    scored = task.score(data, params["measures"])
    write_scores(scored.stack, folder, processes=job.threads)
    for name, table in scored.extras.items():
        table.write(folder / f"{name}.tsv")
    log.info(
        "%s: scored %d runs x %d topics with %d measures",
        params["dataset"], len(scored.stack.runs), len(scored.stack.topics), len(scored.stack.measures),
    )  # fmt: skip
    return scored
