"""Rule score_runs: per-topic score matrix of every run for every measure of the data set's task,
the means per run, the measures' directions, and the task's own tables (e.g. 0/0 conventions)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..plugins import load_plugins
from ..scores import write_scores
from ..tasks import get_task
from . import Job, each_dataset

log = logging.getLogger("score_runs")


def run(job: Job):
    """params: datasets {name: {task, spec, measures}}, plugins. Writes each data set's
    ``scores/<dataset>/`` (the folder of its ``output.means``, in the order of ``params.datasets``):
    ``<measure>.tsv``, ``means.tsv``, ``measures.tsv``, ``stack.npz`` and the task's extra tables, from
    the canonical data beside its ``input.provenance``."""
    params = job.params
    load_plugins(params["plugins"])
    found = {}
    for index, name in each_dataset(job, list(params["datasets"])):
        settings = params["datasets"][name]
        task = get_task(settings["task"])
        folder = Path(job.output["means"][index]).parent
        data = task.read_canonical(name, settings["spec"], Path(job.input["provenance"][index]).parent)
        scored = task.score(data, settings["measures"])
        write_scores(scored.stack, folder, processes=job.threads)
        for extra, table in scored.extras.items():
            table.write(folder / f"{extra}.tsv")
        log.info(
            "%s: scored %d runs x %d topics with %d measures",
            name, len(scored.stack.runs), len(scored.stack.topics), len(scored.stack.measures),
        )  # fmt: skip
        found[name] = scored
    return found
