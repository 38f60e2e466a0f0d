"""Rule datasets_table: one row per data set (the ACL 2021 paper's Table 1, for every configured data set)."""

from ordeval.reports.jobs.datasets import write_datasets_table
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    table = write_datasets_table(snakemake.input.provenance, snakemake.output)
    log.info("%d data sets", len(table))
