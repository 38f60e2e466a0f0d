"""Rule consistency_tables: thin adapter; the job is ordeval.jobs.consistency_tables."""

from ordeval.jobs import execute
from ordeval.jobs.consistency_tables import run

execute(snakemake, run)
