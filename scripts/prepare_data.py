"""Rule prepare_data_<task>: one data set's gold and runs (read, computed or simulated), validated before any
file is written, as its task's canonical files (``snakemake.output``: a file per key of the task's
``canonical_files``)."""

from ordeval.tasks import get_task
from ordeval.tasks.base import source_paths
from ordeval.tasks.plugins import load_plugins
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params = snakemake.wildcards.dataset, snakemake.params
    load_plugins(params.plugins)  # a plugin's file format or task
    task = get_task(params.task)
    data = task.build(dataset, params.spec, source_paths(dataset, params.spec, params.data_root), params.seed)
    data.provenance["task"] = task.name
    data.provenance["summary"] = task.describe(data)
    for key in ("venue", "language"):
        data.provenance[key] = params.spec.get(key, "")
    task.write_canonical(data, dict(snakemake.output.items()))
    log.info(
        "%s (%s): %d topics, %d runs, %d classes, origin %s",
        dataset,
        task.name,
        len(data.topics),
        len(data.run_names),
        len(data.classes),
        data.origin,
    )
