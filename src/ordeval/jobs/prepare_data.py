"""Rule prepare_data: one data set's gold and runs (read, computed or simulated) as canonical tables."""

from __future__ import annotations

import logging
from pathlib import Path

from ..tasks import get_task
from . import Job

log = logging.getLogger("prepare_data")


def run(job: Job):
    """Build the data set from its configuration and write gold.tsv, runs.tsv and provenance.json
    (params: dataset, task, spec, data_root, seed). Everything is validated before anything is written."""
    params = job.params
    task = get_task(params["task"])
    data = task.build(params["dataset"], params["spec"], params["data_root"], params["seed"])
    log.info(
        "%s (%s): %d topics, %d runs, %d classes, origin %s",
        data.name, task.name, len(data.topics), len(data.run_names), len(data.classes), data.origin,
    )  # fmt: skip
    data.provenance["task"] = task.name
    data.provenance["summary"] = task.describe(data)
    for key in ("venue", "language"):
        data.provenance[key] = params["spec"].get(key, "")
    task.write_canonical(data, Path(job.output["provenance"]).parent)
    return data
