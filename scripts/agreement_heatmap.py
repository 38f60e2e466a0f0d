"""Rule agreement_heatmap: heatmap of the tau matrix averaged over the data sets of one task."""

from ordeval.reports.figures.agreement import write_heatmap
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    write_heatmap(
        inputs.mean,
        inputs.measures,
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        variant=params.kendall,
    )
    log.info("heatmap of %d measures", len(params.measures))
