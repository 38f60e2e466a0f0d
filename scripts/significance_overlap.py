"""Rule significance_overlap: the significance overlap SSO = b/(a+b+c) of every pair of measures on one data
set (docs/methods.md 4.5), as CSV, its page and LaTeX."""

from ordeval.reports.jobs.significance import write_overlap
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    overlap = write_overlap(
        inputs.pvalues,
        inputs.arrays,
        inputs.measures,
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        alpha=params.alpha,
        trials=params.hsd_trials,
    )
    log.info("%s: %d measure pairs", dataset, len(overlap))
