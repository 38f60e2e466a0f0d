"""Rule prepare_data: one data set's gold and runs (read, computed or simulated) from the files its configuration
names (``snakemake.input``, by configuration entry: gold, runs_0, ...), validated before any file is written, as
the canonical files of its task (``snakemake.output``: gold, runs, arrays, provenance)."""

from ordeval.tasks.jobs import prepare_dataset
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params = snakemake.params
    files = {name: path for name, path in snakemake.input.items() if name != "plugins"}
    outputs = dict(snakemake.output.items())
    data = prepare_dataset(
        snakemake.wildcards.dataset, params.task, params.spec, files, params.seed, outputs, params.plugins
    )
    log.info(
        "%s (%s): %d topics, %d runs, %d classes, origin %s",
        data.name,
        params.task,
        len(data.topics),
        len(data.run_names),
        len(data.classes),
        data.origin,
    )
