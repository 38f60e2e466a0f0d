"""Rule significance_summary: for the data sets of one task, discriminative power (per data set and pooled)
and the contradictions between measures (counts, the exact run pairs, and with identical runs collapsed), each
as CSV, its page and LaTeX (docs/methods.md 4.4, 4.5)."""

from ordeval.reports.jobs.significance import write_significance_summary
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    summary = write_significance_summary(
        *(keyed(inputs[key], params.datasets) for key in ("pvalues", "arrays", "measures", "identical_runs")),
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        alpha=params.alpha,
        trials=params.hsd_trials,
    )
    log.info(
        "%d data sets: %d contradicting run pairs (%d rows with identical runs collapsed)",
        len(params.datasets),
        len(summary.contradictions),
        len(summary.collapsed),
    )
