"""Rule prepare_data: every data set's gold and runs (read, computed or simulated) as canonical tables."""

from __future__ import annotations

import logging
from pathlib import Path

from ..tasks import get_task
from . import Job, each_dataset

log = logging.getLogger("prepare_data")


def run(job: Job):
    """Build each data set from its configuration (params: datasets {name: {task, spec}}, data_root, seed)
    and write its canonical files beside ``output.provenance`` (one per data set, in the order of
    ``params.datasets``): gold.tsv, runs.tsv, provenance.json, and the task's others. Each data set is
    validated before any of its files is written (and Snakemake removes the outputs of a failed job)."""
    params = job.params
    built = {}
    for index, name in each_dataset(job, list(params["datasets"])):
        settings = params["datasets"][name]
        task = get_task(settings["task"])
        data = task.build(name, settings["spec"], params["data_root"], params["seed"])
        log.info(
            "%s (%s): %d topics, %d runs, %d classes, origin %s",
            data.name, task.name, len(data.topics), len(data.run_names), len(data.classes), data.origin,
        )  # fmt: skip
        data.provenance["task"] = task.name
        data.provenance["summary"] = task.describe(data)
        for key in ("venue", "language"):
            data.provenance[key] = settings["spec"].get(key, "")
        task.write_canonical(data, Path(job.output["provenance"][index]).parent)
        built[name] = data
    return built
