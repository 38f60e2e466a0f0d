"""Rule agreement_summary: the tau matrix averaged over the data sets of one task, and each measure's average
similarity with the other measures (mean of the taus involving it), per data set and averaged."""

from ordeval.reports.jobs.agreement import write_mean_agreement, write_similarity
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    pairs = keyed(inputs.tables, params.datasets)
    mean = write_mean_agreement(pairs, inputs.measures, inputs.provenance, snakemake.output, measures=params.measures)
    write_similarity(pairs, inputs.measures, inputs.provenance, snakemake.output, measures=params.measures)
    log.info("averaged %d measure pairs over %d data sets", len(mean), len(params.datasets))
