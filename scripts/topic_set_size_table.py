"""Rule topic_set_size_table: the topics a test collection needs for each measure of one data set (Sakai,
"Topic Set Size Design", Information Retrieval Journal 19(3), 2016), as CSV, its page and LaTeX."""

from ordeval.reports.jobs.topic_set_size import write_topic_set_size
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    table = write_topic_set_size(
        inputs.stack,
        inputs.provenance,
        snakemake.output,
        measures=params.measures,
        alpha=params.alpha,
        power=params.power,
        fractions=params.mdd_fractions,
    )
    log.info("%s: %d measures, %d rows", dataset, len(params.measures), len(table))
