"""Rule classification_figures: the discriminative power curves of the ordinal classification data sets (the
ACL 2021 paper's Figure 1), each measure's number of significant pairs in the legend."""

from ordeval.reports.figures.significance import write_classification_curves
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    write_classification_curves(
        keyed(inputs.pvalues, params.datasets),
        keyed(inputs.arrays, params.datasets),
        keyed(inputs.measures, params.datasets),
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        alpha=params.alpha,
        trials=params.hsd_trials,
    )
    log.info("%d panels", len(params.datasets))
