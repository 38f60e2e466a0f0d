"""Rule consistency_summary: the mean tau per measure over the data sets of one task, per condition (CSV, its page
and LaTeX)."""

from ordeval.reports.jobs.consistency import write_mean_consistency
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    summaries = {c: keyed(inputs[f"summary_{c}"], params.datasets) for c in params.conditions}
    tables = write_mean_consistency(summaries, inputs.measures, inputs.provenance, snakemake.output)
    log.info(
        "%s: %d measures over %d data sets", ", ".join(tables), len(next(iter(tables.values()))), len(params.datasets)
    )
