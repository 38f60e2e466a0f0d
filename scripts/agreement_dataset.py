"""Rule agreement_dataset: Kendall's τ (with CIs) between the run rankings of every pair of measures on one
data set (docs/methods.md 4.1), as CSV (unrounded), its page and LaTeX."""

from ordeval.reports.jobs.agreement import write_dataset_agreement
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    agreement = write_dataset_agreement(
        inputs.stack,
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        level=params.ci_level,
        variant=params.kendall,
        method=params.ci_method,
    )
    log.info("%s: %d measures over %d runs", dataset, len(agreement.measures), agreement.runs)
