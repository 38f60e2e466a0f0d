"""Rule significance_curves: the discriminative power curves of the data sets of one task, a panel each."""

from ordeval.reports.figures.significance import write_dp_curves_grid
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    write_dp_curves_grid(
        *(keyed(inputs[key], params.datasets) for key in ("pvalues", "arrays", "measures")),
        inputs.provenance,
        snakemake.output,
        task=params.task,
        measures=params.measures,
        alpha=params.alpha,
        trials=params.hsd_trials,
    )
    log.info("curves of %d data sets", len(params.datasets))
