"""Rule replication_summary: counts per verdict for every published table of the configured data sets
(ordeval.results.replication), and the numbers pooled over data sets, each row's data origin that of the numbers it
counts; and the page a replicator reads first (ordeval.reports.replication_page)."""

from ordeval.reports.jobs.replication import write_pooled_replication, write_replication_summary
from ordeval.results.replication import headline, total_counts
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    pooled = write_pooled_replication(inputs.power, inputs.provenance, snakemake.output, tolerance=params.tolerance)
    counts = write_replication_summary(inputs.tables, pooled, inputs.provenance, snakemake.output, name=params.name)
    log.info("verdicts %s", headline(total_counts(counts)))
