"""Rule agreement_dnkt: Kendall's τ (with CIs) between the run rankings of DNKT, M and their harmonic mean
DNKT_M, per data set and averaged over the data sets (docs/methods.md 4.1), as CSV, its page and LaTeX."""

from ordeval.reports.jobs.agreement import write_dnkt
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    measure, params, inputs = snakemake.wildcards.measure, snakemake.params, snakemake.input
    table = write_dnkt(
        keyed(inputs.stack, params.datasets),
        inputs.provenance,
        snakemake.output,
        measure=measure,
        level=params.ci_level,
        variant=params.kendall,
        method=params.ci_method,
    )
    log.info("DNKT_%s: %d data sets", measure, len(params.datasets))
