"""Rule popularity_examples: the gold, Popularity and Uniform distributions of the topics where NMD and RNOD
judge Popularity vs Uniform most differently (the most negative d = Delta_NMD - Delta_RNOD), two per data set."""

from ordeval.reports.figures.examples import write_examples
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    datasets = params.datasets
    panels = write_examples(
        keyed(inputs.stack, datasets),
        keyed(inputs.gold, datasets),
        keyed(inputs.runs, datasets),
        keyed(inputs.arrays, datasets),
        keyed(inputs.provenance, params.all_datasets),
        snakemake.output,
        measures=params.measures,
        runs=[params.popularity_run, params.uniform_run],
        classes=params.classes,
        compared=params.compared,
        skipped=params.skipped,
    )
    log.info("%d example panels", panels)
