"""Rule significance_tables: thin adapter; the job is ordeval.jobs.significance_tables."""

from ordeval.jobs import execute
from ordeval.jobs.significance_tables import run

execute(snakemake, run)
