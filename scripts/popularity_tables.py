"""Rule popularity_tables: Popularity vs Uniform per topic (docs/methods.md 4.6) over the data sets that have
both runs: the topics on which each measure prefers either baseline (with TOTAL rows) and the per-topic deltas."""

from ordeval.reports.jobs.popularity import write_preferences
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    table = write_preferences(
        keyed(inputs.stack, params.datasets),
        keyed(inputs.provenance, params.all_datasets),
        snakemake.output,
        measures=params.measures,
        runs=[params.popularity_run, params.uniform_run],
        tolerance=params.tie_tolerance,
        skipped=params.skipped,
    )
    skipped = "; ".join(f"{name}: {reason}" for name, reason in params.skipped.items())
    log.info("compared %d data sets; left out: %s", len(params.datasets), skipped or "none")
